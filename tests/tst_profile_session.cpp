// A profile's folder of record streams, read while it grows: one run per
// process, live ops to the sink, incomplete streams marked, and a run that
// says so when no process initialized CUDA.
#include "TestProfileStream.h"
#include "profile/ProfileSession.h"

#include <QtTest>

using namespace ovs;
using namespace ovs::profile;
using ovs::test::TestProfileStream;

namespace {

constexpr std::uint64_t kCuptiAtZero = 5'000'000;
constexpr std::int64_t kZeroNs = 1'000;

// Everything the session hands to its sink, in order.
class RecordingSink : public ProfileSink {
public:
    std::vector<std::string> events;
    std::vector<Run> finished;
    std::size_t liveOps = 0;
    void runStarted(int run, const Run& header) override
    {
        events.push_back("started " + std::to_string(run) + " " + header.name);
    }
    void laneAdded(int run, const Lane& lane, int index) override
    {
        events.push_back("lane " + std::to_string(run) + " " + std::to_string(index) + " " + lane.name);
    }
    void opsCompleted(int run, std::span<const Op> ops, const std::vector<std::string>& names) override
    {
        liveOps += ops.size();
        for (const Op& op : ops)
            QVERIFY(op.nameId < names.size());
        events.push_back("ops " + std::to_string(run) + " " + std::to_string(ops.size()));
    }
    void runFinished(int run, const Run& done) override
    {
        events.push_back("finished " + std::to_string(run));
        finished.push_back(done);
    }
};

TestProfileStream process(std::uint32_t pid, std::uint32_t parent)
{
    TestProfileStream s(pid, parent);
    s.clock(kCuptiAtZero, kZeroNs);
    s.context(1, 0, 7);
    return s;
}

} // namespace

class TestProfileSession : public QObject {
    Q_OBJECT

    QString path(const QTemporaryDir& dir, const char* name) { return dir.filePath(QString::fromLatin1(name)); }

private slots:
    void eachProcessIsARunAndOpsArriveLive()
    {
        QTemporaryDir dir;
        RecordingSink sink;
        ProfileSession session(dir.path().toStdString(), kZeroNs, &sink);
        QCOMPARE(session.poll(), std::size_t(0));

        TestProfileStream parent = process(200, 1);
        parent.kernel(kCuptiAtZero + 100, kCuptiAtZero + 200, "k", 13, 1);
        parent.appendTo(path(dir, "200-1.ovsprof").toStdString());
        QVERIFY(session.poll() > 0);
        QCOMPARE(session.processes(), 1);
        QCOMPARE(sink.liveOps, std::size_t(1));

        // The child appears later; the parent keeps writing.
        TestProfileStream child = process(201, 200);
        child.memcpy(kCuptiAtZero + 300, kCuptiAtZero + 400, kCopyHtoD, kMemoryPinned, kMemoryDevice, 13, 1);
        child.end();
        child.appendTo(path(dir, "201-1.ovsprof").toStdString());
        parent.kernel(kCuptiAtZero + 500, kCuptiAtZero + 600, "k", 13, 2);
        parent.end();
        parent.appendTo(path(dir, "200-1.ovsprof").toStdString());
        session.poll();
        QCOMPARE(session.processes(), 2);
        QCOMPARE(session.gpuOps(), std::uint64_t(3));
        QCOMPARE(sink.liveOps, std::size_t(3));

        ProgramEnding ending;
        ending.pid = 200;
        ending.exitStatus = "exit status 1";
        const std::vector<Run> runs = session.finish(ending);
        QCOMPARE(runs.size(), std::size_t(2));
        QVERIFY(runs[0].name.ends_with("(pid 200)"));
        QVERIFY(runs[1].name.ends_with("(pid 201)"));
        QCOMPARE(runs[0].ops.size(), std::size_t(2));
        QCOMPARE(runs[1].ops.size(), std::size_t(1));
        // The launched program's status belongs to its run, not its child's.
        QVERIFY(runs[0].error.find("exit status 1") != std::string::npos);
        QVERIFY(runs[1].error.find("exit status") == std::string::npos);
        // Both processes on one time axis: the child's copy at 300 ns.
        QCOMPARE(runs[1].ops.front().startNs, std::int64_t(300));
        QCOMPARE(sink.events.front(), std::string("started 0 app --fast (pid 200)"));
        QCOMPARE(sink.events.back(), std::string("finished 1"));
        QCOMPARE(sink.finished.size(), std::size_t(2));
    }

    void aStreamWithoutEndIsIncomplete_data()
    {
        QTest::addColumn<int>("cutBytes");
        QTest::addColumn<QString>("message");
        QTest::newRow("killed between records") << 0 << "incomplete";
        QTest::newRow("killed inside a record") << 9 << "ends inside a record";
    }
    void aStreamWithoutEndIsIncomplete()
    {
        QFETCH(int, cutBytes);
        QFETCH(QString, message);
        QTemporaryDir dir;
        TestProfileStream s = process(300, 1);
        s.kernel(kCuptiAtZero + 100, kCuptiAtZero + 200, "k", 13, 1);
        s.kernel(kCuptiAtZero + 300, kCuptiAtZero + 400, "k", 13, 2);
        QByteArray bytes(reinterpret_cast<const char*>(s.bytes().data()), static_cast<int>(s.bytes().size()));
        bytes.chop(cutBytes);
        QFile file(path(dir, "300-1.ovsprof"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();
        ProfileSession session(dir.path().toStdString(), kZeroNs);
        ProgramEnding ending;
        ending.pid = 300;
        ending.exitStatus = "killed by signal 9 (Killed)";
        const std::vector<Run> runs = session.finish(ending);
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].status, RunStatus::Failed);
        QVERIFY2(QString::fromStdString(runs[0].error).contains(message), runs[0].error.c_str());
        QVERIFY(runs[0].error.find("killed by signal 9") != std::string::npos);
        QCOMPARE(runs[0].ops.size(), std::size_t(cutBytes == 0 ? 2 : 1)); // all that was flushed whole
    }

    void noStreamMeansNoCuda()
    {
        QTemporaryDir dir;
        QFile other(path(dir, "notes.txt")); // not a stream: ignored
        QVERIFY(other.open(QIODevice::WriteOnly));
        other.write("hello");
        other.close();
        RecordingSink sink;
        ProfileSession session(dir.path().toStdString(), kZeroNs, &sink);
        ProgramEnding ending;
        ending.commandLine = "./train --epochs 1";
        ending.exitedCleanly = true;
        ending.exitStatus = "exit status 0";
        ending.endedNs = 2'000'000;
        const std::vector<Run> runs = session.finish(ending);
        QCOMPARE(runs.size(), std::size_t(1));
        QCOMPARE(runs[0].name, std::string("./train --epochs 1"));
        QCOMPARE(runs[0].status, RunStatus::Completed);
        QVERIFY(runs[0].ops.empty());
        QVERIFY(runs[0].error.find("no process of the program initialized CUDA") != std::string::npos);
        QCOMPARE(runs[0].timedEndNs, std::int64_t(2'000'000));
        QCOMPARE(sink.finished.size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestProfileSession)
#include "tst_profile_session.moc"
