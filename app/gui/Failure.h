#pragma once

#include <QString>

// Prints "overlapscope: MESSAGE" on stderr, one line of at most 300
// characters whatever the arguments it quotes hold (a 100,000-digit number,
// a line break), and returns `status`, the exit status to leave with.
int fail(int status, const QString& message);
