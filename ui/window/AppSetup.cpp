#include "window/AppSetup.h"

#include <QApplication>
#include <QFont>
#include <QFontDatabase>
#include <QtGlobal>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

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

void setUpRuntimeDirectory()
{
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
        return;
    const char* tmp = std::getenv("TMPDIR");
    const std::string base = tmp && *tmp ? tmp : "/tmp";
    // Ours only if it is a real directory that we own: anyone can create a
    // name in /tmp first.
    std::string dir = base + "/overlapscope-runtime-" + std::to_string(::getuid());
    ::mkdir(dir.c_str(), 0700);
    struct stat info {};
    const bool ours = ::lstat(dir.c_str(), &info) == 0 && S_ISDIR(info.st_mode) && info.st_uid == ::getuid()
                      && ::chmod(dir.c_str(), 0700) == 0;
    if (!ours) {
        std::string pattern = base + "/overlapscope-runtime-XXXXXX";
        if (!::mkdtemp(pattern.data()))
            return; // Qt falls back (and says so) as before
        dir = pattern;
    }
    qputenv("XDG_RUNTIME_DIR", QByteArray::fromStdString(dir));
}

} // namespace ovs::ui
