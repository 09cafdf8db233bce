// libFuzzer target: a profile's record stream (core/profile/ProfileRecord.h)
// read as `profile` reads what a process wrote, on any bytes: the decoder
// stops with a message or hands whole records to the run builder, which
// makes a run of whatever it understood, call stacks included (their
// records garbled, cut, or pointing at nothing). Built and run by
// scripts/fuzz.sh; seeds in tests/fuzz-corpus/profile_stream/.
#include "profile/ProcessRunBuilder.h"
#include "profile/ProfileStreamDecoder.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    ovs::profile::ProfileStreamDecoder decoder;
    // In two pieces, as a stream still being written arrives.
    const std::size_t half = size / 2;
    decoder.feed(data, half);
    ovs::profile::ProcessRunBuilder builder(0);
    ovs::profile::DecodedRecord r;
    while (decoder.next(r))
        builder.add(r);
    decoder.feed(data + half, size - half);
    while (decoder.next(r))
        builder.add(r);
    const ovs::Run run = builder.finish({}, decoder.error());
    if (run.opSources.size() > run.ops.size())
        std::abort(); // sources stay beside the ops
    for (const ovs::OpSource& s : run.opSources)
        if (s.site > run.sourceSites.size())
            std::abort(); // a site id names a site
    return 0;
}
