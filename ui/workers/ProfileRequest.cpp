#include "workers/ProfileRequest.h"

#include "profile/CommandWords.h"

#include <QCoreApplication>
#include <QDir>
#include <QRegularExpression>
#include <QStringList>

namespace ovs::ui {
namespace {

QStringList environmentLines(const QString& text)
{
    QStringList lines;
    for (const QString& raw : text.split('\n')) {
        const QString line = raw.trimmed();
        if (!line.isEmpty() && !line.startsWith('#'))
            lines << line;
    }
    return lines;
}

} // namespace

QString ProfileRequest::problem() const
{
    if (program.trimmed().isEmpty())
        return QCoreApplication::translate("ProfileRequest", "no program given: choose the program to profile");
    std::vector<std::string> words;
    std::string why;
    if (!profile::splitCommandWords(arguments.toStdString(), &words, &why))
        return QCoreApplication::translate("ProfileRequest", "arguments: %1").arg(QString::fromStdString(why));
    static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*="));
    for (const QString& line : environmentLines(environment))
        if (!name.match(line).hasMatch())
            return QCoreApplication::translate("ProfileRequest",
                                               "environment: '%1' is not NAME=VALUE (a name of letters, digits "
                                               "and _, not starting with a digit)")
                .arg(line);
    if (!workingDirectory.trimmed().isEmpty() && !QDir(workingDirectory.trimmed()).exists())
        return QCoreApplication::translate("ProfileRequest", "the working folder %1 does not exist")
            .arg(workingDirectory.trimmed());
    return {};
}

profile::ProfileRequest ProfileRequest::toCore() const
{
    profile::ProfileRequest request;
    request.program.push_back(program.trimmed().toStdString());
    std::vector<std::string> words;
    std::string why;
    if (profile::splitCommandWords(arguments.toStdString(), &words, &why))
        request.program.insert(request.program.end(), words.begin(), words.end());
    request.workingDirectory = workingDirectory.trimmed().toStdString();
    for (const QString& line : environmentLines(environment))
        request.environment.push_back(line.toStdString());
    request.injectionLibrary = injectionLibrary.trimmed().toStdString();
    // As the CLI looks (next to it, ../lib), plus the build tree's CLI folder,
    // where the library is built beside overlapscope-cli.
    const std::string dir = QCoreApplication::applicationDirPath().toStdString();
    if (!dir.empty())
        request.injectionSearchFolders = {dir, dir + "/../lib", dir + "/../cli"};
    return request;
}

QString ProfileRequest::commandLine() const
{
    std::vector<std::string> words{program.trimmed().toStdString()};
    std::vector<std::string> rest;
    std::string why;
    if (profile::splitCommandWords(arguments.toStdString(), &rest, &why))
        words.insert(words.end(), rest.begin(), rest.end());
    return QString::fromStdString(profile::joinCommandWords(words));
}

} // namespace ovs::ui
