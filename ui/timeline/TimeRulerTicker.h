#pragma once

#include <qcustomplot.h>

namespace ovs::ui {

// The timeline's time ruler: 1-2-5 steps spaced for the axis's pixel width and
// labels in one adaptive unit per axis (TimeFormat::tick), so zooming from a
// whole run down to a few hundred ns always reads naturally.
class TimeRulerTicker : public QCPAxisTicker {
public:
    static constexpr double kPixelsPerTick = 110.0;

    explicit TimeRulerTicker(const QCPAxis* axis);

protected:
    double getTickStep(const QCPRange& range) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;

private:
    const QCPAxis* m_axis;
    double m_step = 1.0;
    double m_magnitude = 1.0;
};

} // namespace ovs::ui
