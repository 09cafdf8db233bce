#include "window/AppSetup.h"

#include <QApplication>
#include <QFont>
#include <QFontDatabase>

static void initUiResources()
{
    // The .qrc lives in a static library: its initializer must be referenced
    // explicitly or the linker drops it.
    Q_INIT_RESOURCE(resources);
}

namespace ovs::ui {

QString setUpApplicationFont()
{
    initUiResources();
    QString family;
    for (const char* file : {":/fonts/DejaVuSans.ttf", ":/fonts/DejaVuSans-Bold.ttf"}) {
        const int id = QFontDatabase::addApplicationFont(QString::fromLatin1(file));
        if (id >= 0 && family.isEmpty())
            family = QFontDatabase::applicationFontFamilies(id).value(0);
    }
    if (!family.isEmpty()) {
        QFont font(family);
        font.setPointSizeF(9.5);
        QApplication::setFont(font);
    }
    return family;
}

} // namespace ovs::ui
