#pragma once

#include "trace/Op.h"

#include <QColor>
#include <QString>

#include <array>
#include <vector>

namespace ovs::ui {

// Colour-vision deficiency simulation and colour distance, to check that the
// op palette stays readable for colour-blind viewers (issue 8, part 5).
//
// Simulation: Machado, Oliveira and Fernandes 2009, severity 1.0 matrices,
// applied to linear sRGB. Distance: CIE76 ΔE (Euclidean in CIELAB, D65).
enum class Vision { Normal, Deuteranopia, Protanopia };

namespace ColorVision {

QString visionName(Vision vision);
// What a viewer with `vision` sees of `color` (Normal: the colour itself).
QColor simulate(const QColor& color, Vision vision);
// CIELAB (D65) of an sRGB colour: L, a, b.
std::array<double, 3> toLab(const QColor& color);
double deltaE76(const QColor& a, const QColor& b);

// The smallest pairwise ΔE of the op colours under `vision`.
struct PairDistance {
    OpKind a;
    OpKind b;
    std::array<double, 3> deltaE; // Normal, Deuteranopia, Protanopia
    double smallest() const;
};
// Every pair of op kinds, closest first (by the smallest of the three).
std::vector<PairDistance> opPalettePairs();
// The markdown table docs/gui.md records: the closest pairs and each
// vision's minimum, computed from opColor() now.
QString opPaletteReport(int closestPairs = 12);

// Below this no pair of op colours may fall in any of the three visions
// (≈ 2.3 is a just noticeable difference; 15 keeps thin bars apart too).
constexpr double kMinimumOpDeltaE = 15.0;

} // namespace ColorVision

} // namespace ovs::ui
