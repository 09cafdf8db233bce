#include "../TestTimeouts.h"
#include "workers/BackgroundWorker.h"

#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

using ovs::ui::BackgroundWorker;

// The one background mechanism: jobs off the GUI thread, in order, results
// back on the owner's thread; destruction waits and drops the rest.
class TestBackgroundWorker : public QObject {
    Q_OBJECT

private slots:
    void jobsRunInOrderOffTheOwnersThread_data()
    {
        QTest::addColumn<int>("jobs");
        QTest::newRow("one") << 1;
        QTest::newRow("many") << 50;
    }
    void jobsRunInOrderOffTheOwnersThread()
    {
        QFETCH(int, jobs);
        BackgroundWorker worker;
        std::vector<int> ran, delivered;
        bool offThread = true, deliveredHere = true;
        QThread* const gui = QThread::currentThread();
        for (int i = 0; i < jobs; ++i) {
            worker.post([&, i]() -> BackgroundWorker::Delivery {
                offThread = offThread && QThread::currentThread() != gui;
                ran.push_back(i); // one job at a time: no lock needed
                return [&, i] {
                    deliveredHere = deliveredHere && QThread::currentThread() == gui;
                    delivered.push_back(i);
                };
            });
        }
        QVERIFY(worker.isBusy());
        QTRY_VERIFY_WITH_TIMEOUT(!worker.isBusy(), ovsTestTimeoutMs(30'000));
        QCOMPARE(int(delivered.size()), jobs);
        for (int i = 0; i < jobs; ++i) {
            QCOMPARE(ran[std::size_t(i)], i);
            QCOMPARE(delivered[std::size_t(i)], i);
        }
        QVERIFY(offThread);
        QVERIFY(deliveredHere);
    }

    void aThrowingJobDeliversNothing()
    {
        BackgroundWorker worker;
        bool delivered = false;
        QTest::ignoreMessage(QtWarningMsg, "overlapscope: a background job failed: boom");
        worker.post([]() -> BackgroundWorker::Delivery { throw std::runtime_error("boom"); });
        worker.post([&]() -> BackgroundWorker::Delivery { return [&] { delivered = true; }; });
        QTRY_VERIFY_WITH_TIMEOUT(!worker.isBusy(), ovsTestTimeoutMs(30'000));
        QVERIFY(delivered); // the queue goes on
    }

    void destructionWaitsAndDropsTheRest()
    {
        // The job holds until the test lets it go, just before the worker is
        // destroyed: the destructor finds it in progress and must wait.
        auto finished = std::make_shared<std::atomic<bool>>(false);
        auto started = std::make_shared<std::atomic<bool>>(false);
        auto release = std::make_shared<std::atomic<bool>>(false);
        bool delivered = false;
        {
            BackgroundWorker worker;
            worker.post([=, &delivered]() -> BackgroundWorker::Delivery {
                started->store(true);
                while (!release->load())
                    std::this_thread::yield();
                finished->store(true);
                return [&delivered] { delivered = true; };
            });
            QTRY_VERIFY_WITH_TIMEOUT(started->load(), ovsTestTimeoutMs(30'000));
            release->store(true);
        }
        QVERIFY(finished->load()); // waited for the job in progress
        QCoreApplication::processEvents();
        QVERIFY(!delivered); // its result had nowhere to go
    }
};

QTEST_GUILESS_MAIN(TestBackgroundWorker)
#include "tst_background_worker.moc"
