#include "style/ColorVision.h"

#include "style/OpStyle.h"

#include <algorithm>
#include <cmath>

namespace ovs::ui::ColorVision {

namespace {

using Matrix = std::array<std::array<double, 3>, 3>;

// Machado et al. 2009, Table 1, severity 1.0.
constexpr Matrix kDeuteranopia = {{{0.367322, 0.860646, -0.227968},
                                   {0.280085, 0.672501, 0.047413},
                                   {-0.011820, 0.042940, 0.968881}}};
constexpr Matrix kProtanopia = {{{0.152286, 1.052583, -0.204868},
                                 {0.114503, 0.786281, 0.099216},
                                 {-0.003882, -0.048116, 1.051998}}};

double toLinear(double c)
{
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double toGamma(double c)
{
    c = std::clamp(c, 0.0, 1.0);
    return c <= 0.0031308 ? c * 12.92 : 1.055 * std::pow(c, 1 / 2.4) - 0.055;
}

std::array<double, 3> linearRgb(const QColor& color)
{
    const QColor rgb = color.toRgb();
    return {toLinear(rgb.redF()), toLinear(rgb.greenF()), toLinear(rgb.blueF())};
}

} // namespace

QString visionName(Vision vision)
{
    switch (vision) {
    case Vision::Normal: return QStringLiteral("normal");
    case Vision::Deuteranopia: return QStringLiteral("deuteranopia");
    case Vision::Protanopia: return QStringLiteral("protanopia");
    }
    return {};
}

QColor simulate(const QColor& color, Vision vision)
{
    if (vision == Vision::Normal)
        return color.toRgb();
    const Matrix& m = vision == Vision::Deuteranopia ? kDeuteranopia : kProtanopia;
    const auto in = linearRgb(color);
    std::array<double, 3> out{};
    for (int i = 0; i < 3; ++i)
        out[i] = m[i][0] * in[0] + m[i][1] * in[1] + m[i][2] * in[2];
    return QColor::fromRgbF(static_cast<float>(toGamma(out[0])), static_cast<float>(toGamma(out[1])),
                            static_cast<float>(toGamma(out[2])));
}

std::array<double, 3> toLab(const QColor& color)
{
    const auto [r, g, b] = linearRgb(color);
    // sRGB -> XYZ (D65), normalised by the white point.
    const double x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
    const double y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
    const double z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883;
    const auto f = [](double t) {
        constexpr double e = 216.0 / 24389.0;
        constexpr double k = 24389.0 / 27.0;
        return t > e ? std::cbrt(t) : (k * t + 16) / 116;
    };
    return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

double deltaE76(const QColor& a, const QColor& b)
{
    const auto la = toLab(a);
    const auto lb = toLab(b);
    return std::sqrt((la[0] - lb[0]) * (la[0] - lb[0]) + (la[1] - lb[1]) * (la[1] - lb[1])
                     + (la[2] - lb[2]) * (la[2] - lb[2]));
}

double PairDistance::smallest() const
{
    return *std::min_element(deltaE.begin(), deltaE.end());
}

std::vector<PairDistance> opPalettePairs()
{
    constexpr Vision visions[] = {Vision::Normal, Vision::Deuteranopia, Vision::Protanopia};
    std::vector<PairDistance> pairs;
    for (int i = 0; i < kOpKindCount; ++i) {
        for (int j = i + 1; j < kOpKindCount; ++j) {
            PairDistance pair{static_cast<OpKind>(i), static_cast<OpKind>(j), {}};
            for (int v = 0; v < 3; ++v)
                pair.deltaE[static_cast<std::size_t>(v)] =
                    deltaE76(simulate(opColor(pair.a), visions[v]), simulate(opColor(pair.b), visions[v]));
            pairs.push_back(pair);
        }
    }
    std::sort(pairs.begin(), pairs.end(),
              [](const PairDistance& x, const PairDistance& y) { return x.smallest() < y.smallest(); });
    return pairs;
}

QString opPaletteReport(int closestPairs)
{
    const auto pairs = opPalettePairs();
    std::array<double, 3> minimum = {1e9, 1e9, 1e9};
    for (const auto& pair : pairs)
        for (std::size_t v = 0; v < 3; ++v)
            minimum[v] = std::min(minimum[v], pair.deltaE[v]);
    const auto num = [](double x) { return QString::number(x, 'f', 1); };
    QString out;
    out += QStringLiteral("CIE76 ΔE between op colours (Machado 2009 simulation, severity 1.0), "
                          "%1 pairs of %2 kinds; the %3 closest:\n\n")
               .arg(pairs.size())
               .arg(kOpKindCount)
               .arg(std::min<int>(closestPairs, static_cast<int>(pairs.size())));
    out += QStringLiteral("| pair | normal | deuteranopia | protanopia |\n|---|---:|---:|---:|\n");
    for (int i = 0; i < closestPairs && i < static_cast<int>(pairs.size()); ++i) {
        const auto& p = pairs[static_cast<std::size_t>(i)];
        out += QStringLiteral("| %1 / %2 | %3 | %4 | %5 |\n")
                   .arg(opKindLabel(p.a), opKindLabel(p.b), num(p.deltaE[0]), num(p.deltaE[1]), num(p.deltaE[2]));
    }
    out += QStringLiteral("| **minimum over all pairs** | **%1** | **%2** | **%3** |\n")
               .arg(num(minimum[0]), num(minimum[1]), num(minimum[2]));
    out += QStringLiteral("\nRequired: every pair at least %1 in all three (tests/ui/tst_theme checks it).\n")
               .arg(num(kMinimumOpDeltaE));
    return out;
}

} // namespace ovs::ui::ColorVision
