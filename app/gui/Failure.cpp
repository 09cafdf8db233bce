#include "Failure.h"

#include "base/MessageText.h"

#include <cstdio>

int fail(int status, const QString& message)
{
    std::fprintf(stderr, "overlapscope: %s\n", ovs::messageText(message.toStdString(), 300).c_str());
    return status;
}
