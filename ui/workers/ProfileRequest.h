#pragma once

#include "profile/ProfileRun.h"

#include <QMetaType>
#include <QString>

namespace ovs::ui {

// What File > Profile program… asks for, as the user typed it: the program,
// its arguments as one line split like a shell would (quotes), its working
// folder, and extra environment variables, one NAME=VALUE a line.
struct ProfileRequest {
    QString program;
    QString arguments;
    QString workingDirectory; // empty: the window's own
    QString environment;      // NAME=VALUE lines; blank lines and # comments ignored
    // The injection library; empty: found as the CLI finds it
    // (OVERLAPSCOPE_INJECT_LIBRARY, else next to the executable, ../lib, ../cli).
    QString injectionLibrary;

    // Empty when the request can start; else the first problem, for the user.
    // (Whether the program exists is found when it starts, as for the CLI.)
    QString problem() const;
    // The core's request; only for a request without problem().
    profile::ProfileRequest toCore() const;
    // The command line for messages and the trace's provenance.
    QString commandLine() const;
};

} // namespace ovs::ui

Q_DECLARE_METATYPE(ovs::ui::ProfileRequest)
