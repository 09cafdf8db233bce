#pragma once

#include "timeline/TimelinePlottable.h"

#include <QColor>
#include <QFont>
#include <QPalette>

namespace ovs::ui {

// The timeline's colours and fonts, derived from the widget's palette and
// font, so light/dark and presentation mode reach every part of the drawing
// (and an export made from the window looks like the window).
struct TimelineStyle {
    QColor background;
    QColor text;
    QColor axis;
    QColor grid;
    QColor subTick;
    QColor axisLabel;
    QColor emptyNote;
    QFont base;
    QFont title;
    QFont label;
    TimelinePlottable::Style plottable;

    // `widgetFont` sets the size; the family is the bundled one where it is
    // registered, so exports do not depend on the host's fonts.
    static TimelineStyle from(const QPalette& palette, const QFont& widgetFont);
    static QFont baseFont(const QFont& widgetFont);
};

} // namespace ovs::ui
