#include "timeline/TimelineStyle.h"

#include "style/ColorMix.h"

#include <QFontDatabase>

#include <algorithm>

namespace ovs::ui {

namespace {

const QString kBundledFamily = QStringLiteral("DejaVu Sans");

QColor withAlpha(QColor color, int alpha)
{
    color.setAlpha(alpha);
    return color;
}

} // namespace

QFont TimelineStyle::baseFont(const QFont& widgetFont)
{
    QFont base = widgetFont;
    if (QFontDatabase::families().contains(kBundledFamily))
        base.setFamily(kBundledFamily);
    if (base.pointSizeF() > 0 && base.pointSizeF() < 9)
        base.setPointSizeF(9);
    return base;
}

TimelineStyle TimelineStyle::from(const QPalette& palette, const QFont& widgetFont)
{
    TimelineStyle s;
    s.background = palette.color(QPalette::Base);
    s.text = palette.color(QPalette::Text);
    const bool dark = s.background.lightness() < 128;
    s.base = baseFont(widgetFont);
    s.title = s.base;
    s.title.setBold(true);
    s.label = s.base;
    s.label.setPointSizeF(std::max(7.0, s.base.pointSizeF() - 1));

    s.axis = mixColors(s.background, s.text, 0.45);
    s.grid = mixColors(s.background, s.text, dark ? 0.18 : 0.11);
    s.subTick = mixColors(s.background, s.text, 0.3);
    s.axisLabel = mixColors(s.background, s.text, 0.7);
    s.emptyNote = mixColors(s.background, s.text, 0.6);

    TimelinePlottable::Style& p = s.plottable;
    p.stripe = withAlpha(s.text, dark ? 14 : 9);
    p.timedRegion = dark ? QColor(90, 150, 255, 26) : QColor(40, 110, 220, 16);
    p.timedEdge = dark ? QColor(120, 170, 255, 170) : QColor(40, 100, 200, 150);
    p.highlight = s.text;
    p.measureFill = QColor(255, 190, 20, dark ? 60 : 70);
    p.measureEdge = QColor(220, 150, 0);
    p.measureText = s.text;
    p.measureLabelBackground = s.background;
    // Magenta is far from every op colour, in both themes.
    p.playhead = dark ? QColor(0xff, 0x5c, 0xe1) : QColor(0xc0, 0x00, 0x9c);
    p.labelFont = s.label;
    // A device group's header (runs on several GPUs): a band a shade
    // stronger than the lane stripes, its text bold in the text colour.
    p.groupBand = mixColors(s.background, s.text, dark ? 0.16 : 0.09);
    p.groupText = s.text;
    p.groupFont = s.title;
    // The regions band: a translucent shade under the regions (the timed
    // region's tint and the grid show through), so it reads as a band of
    // its own above the lanes.
    p.regionBand = withAlpha(s.text, dark ? 22 : 13);
    p.dark = dark;
    return s;
}

} // namespace ovs::ui
