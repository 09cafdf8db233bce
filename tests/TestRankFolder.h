#pragma once

// Small per-rank PyTorch profiler (Kineto) traces, as a distributed job
// writes them, for the tests of `analyze DIR` (core/ranks): each step a
// ProfilerStep#k annotation, a pageable upload (its cudaMemcpyAsync blocks
// the host while the driver stages it) and a kernel after it, on the wall
// clock (ts from baseTimeNanoseconds) that the ranks share.

#include <QByteArray>
#include <QFile>
#include <QString>

struct TestRank {
    int rank = -1;           // distributedInfo.rank; -1 writes none
    qint64 skewUs = 0;       // this rank's clock after the others'
    int copyUs = 100;        // each pageable upload's duration (a straggler's is longer)
    int steps = 6;
};

inline QByteArray testRankTrace(const TestRank& r)
{
    QByteArray events = R"({"ph":"M","name":"process_name","pid":50,"tid":0,"args":{"name":"python3"}})";
    const auto add = [&events](const char* cat, const char* name, int pid, int tid, qint64 ts, qint64 dur,
                               const QByteArray& args) {
        events += ",\n" + QByteArray(R"({"ph":"X","cat":")") + cat + R"(","name":")" + name + R"(","pid":)"
                  + QByteArray::number(pid) + R"(,"tid":)" + QByteArray::number(tid) + R"(,"ts":)"
                  + QByteArray::number(ts) + R"(,"dur":)" + QByteArray::number(dur) + R"(,"args":{)" + args + "}}";
    };
    for (int k = 0; k < r.steps; ++k) {
        const qint64 t0 = 1000000 + qint64(k) * 1000 + r.skewUs; // every rank starts step k together
        const auto id = [k](int n) { return QByteArray::number(10 * k + n); }; // unique per step
        add("user_annotation", ("ProfilerStep#" + QByteArray::number(k)).constData(), 50, 50, t0, r.copyUs + 40,
            R"("External id":)" + id(1));
        add("cuda_runtime", "cudaMemcpyAsync", 50, 50, t0 + 10, r.copyUs + 5, R"("correlation":)" + id(2));
        add("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 0, 7, t0 + 12, r.copyUs,
            R"("device":0,"stream":7,"bytes":8388608,"correlation":)" + id(2));
        add("cuda_runtime", "cudaLaunchKernel", 50, 50, t0 + 20 + r.copyUs, 5, R"("correlation":)" + id(3));
        add("kernel", "gemm", 0, 7, t0 + 30 + r.copyUs, 300, R"("device":0,"stream":7,"correlation":)" + id(3));
    }
    QByteArray root = R"({"schemaVersion":1,"baseTimeNanoseconds":1700000000000000000,)";
    if (r.rank >= 0)
        root += R"("distributedInfo":{"backend":"nccl","rank":)" + QByteArray::number(r.rank) + R"(,"world_size":4},)";
    return root + "\n\"traceEvents\":[\n" + events + "\n]}\n";
}

inline bool writeTestRank(const QString& path, const TestRank& r)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(testRankTrace(r)) >= 0;
}
