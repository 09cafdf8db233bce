#pragma once

#include <QColor>

namespace ovs::ui {

// `a` blended toward `b` by `t` (0: a, 1: b), channel by channel; opaque.
inline QColor mixColors(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - t) + b.redF() * t),
                            static_cast<float>(a.greenF() * (1 - t) + b.greenF() * t),
                            static_cast<float>(a.blueF() * (1 - t) + b.blueF() * t));
}

} // namespace ovs::ui
