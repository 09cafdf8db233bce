#include "panels/SourceOpener.h"

#include "base/ChildHugePages.h"

#include <QDesktopServices>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QUrl>

#include <algorithm>

namespace ovs::ui {

QStringList editorCommand(const QString& editor, const QString& file, int line)
{
    QStringList command = QProcess::splitCommand(editor);
    if (command.isEmpty())
        return {};
    const QString program = QFileInfo(command.front()).fileName();
    const QString at = QString::number(std::max(line, 1));
    if (program == QLatin1String("code") || program == QLatin1String("codium") || program == QLatin1String("code-insiders"))
        command << QStringLiteral("-g") << file + QLatin1Char(':') + at;
    else if (program == QLatin1String("kate"))
        command << QStringLiteral("-l") << at << file;
    else if (program == QLatin1String("subl") || program == QLatin1String("hx") || program == QLatin1String("zed"))
        command << file + QLatin1Char(':') + at;
    else // vi, vim, nvim, gvim, emacs, emacsclient, nano, micro, gedit, ...
        command << QLatin1Char('+') + at << file;
    return command;
}

bool openSource(const QString& file, int line, QString* why)
{
    const auto fail = [&](const QString& reason) {
        if (why)
            *why = reason;
        return false;
    };
    if (!QFileInfo(file).isFile())
        return fail(QObject::tr("%1 is not on this machine").arg(file));
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QString editor = env.value(QStringLiteral("VISUAL"), env.value(QStringLiteral("EDITOR")));
    const QStringList command = editorCommand(editor, file, line);
    const ChildHugePages systemHugePages; // the editor's own setting, not the window's
    if (command.isEmpty()) {
        if (!QDesktopServices::openUrl(QUrl::fromLocalFile(file)))
            return fail(QObject::tr("no program opens %1 (set VISUAL or EDITOR)").arg(file));
        return true;
    }
    if (!QProcess::startDetached(command.front(), command.mid(1)))
        return fail(QObject::tr("could not start %1").arg(command.front()));
    return true;
}

} // namespace ovs::ui
