// LessonSession: the steps a class walks through a lesson (intro, predict,
// run, each thing to look at, results), driven as the panel and the
// presentation keys drive it, with no window and no run.
#include "document/LessonSession.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace ovs;
using namespace ovs::ui;

Q_DECLARE_METATYPE(ovs::ui::LessonStage)

namespace {

const Lesson& lesson()
{
    const Lesson* l = findLesson("pageable-vs-pinned");
    if (!l)
        qFatal("no lesson pageable-vs-pinned");
    return *l;
}

// A result as runLesson returns it: judged (answer c) with three focus
// entries, the middle one picking no op (so it is not a step), or
// cancelled with no verdict.
std::shared_ptr<const LessonResult> fakeResult(bool judged)
{
    auto r = std::make_shared<LessonResult>();
    r->lessonId = lesson().id;
    r->judged = judged;
    r->outcome.cancelled = !judged;
    r->notJudged = judged ? "" : "not judged: the lesson was cancelled";
    r->verdict.answer = "c";
    r->verdict.why = "pinned uploads ran 7x faster";
    ResolvedFocus a;
    a.runIndex = 0;
    a.ops = {0};
    a.callout = "first";
    ResolvedFocus none;
    none.runIndex = 0;
    none.callout = "picked nothing";
    ResolvedFocus b;
    b.runIndex = 1;
    b.ops = {1, 2};
    b.callout = "second";
    r->focus = {a, none, b};
    return r;
}

// Plays a script of space-separated actions: n next, p previous, c:X
// choose X, s skip, r Run button, b the run began, f:J / f:U the run came
// back judged / cancelled, g:N click focus step N, o open the lesson again.
void play(LessonSession& session, const QString& script)
{
    for (const QString& token : script.split(' ', Qt::SkipEmptyParts)) {
        if (token == "n")
            session.next();
        else if (token == "p")
            session.previous();
        else if (token.startsWith("c:"))
            session.choose(token.mid(2).toStdString());
        else if (token == "s")
            session.skipPrediction();
        else if (token == "r")
            session.requestRun();
        else if (token == "b")
            session.beginRun();
        else if (token == "f:J")
            session.finishRun(fakeResult(true));
        else if (token == "f:U")
            session.finishRun(fakeResult(false));
        else if (token.startsWith("g:"))
            session.showFocus(token.mid(2).toInt());
        else if (token == "o")
            session.open(&lesson());
        else
            QFAIL(qPrintable("unknown script token " + token));
    }
}

} // namespace

class TestLessonSession : public QObject {
    Q_OBJECT

private slots:
    void nothingOpen()
    {
        LessonSession session;
        QCOMPARE(session.stage(), LessonStage::None);
        QVERIFY(!session.next());
        QVERIFY(!session.choose("a"));
        QVERIFY(!session.canRun());
        QVERIFY(!session.open(nullptr));
        QCOMPARE(session.stepNumber(), 0);
    }

    void steps_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<LessonStage>("stage");
        QTest::addColumn<int>("stepNumber");
        QTest::addColumn<int>("stepCount");
        QTest::addColumn<int>("runRequests");
        QTest::addColumn<QString>("choice");
        QTest::addColumn<int>("focus"); // currentFocus(): index into result()->focus

        const int before = 4 + static_cast<int>(lesson().focus.size()); // every focus the lesson names
        QTest::newRow("opens at the intro") << "" << LessonStage::Intro << 1 << before << 0 << "" << -1;
        QTest::newRow("back at the intro stays") << "p" << LessonStage::Intro << 1 << before << 0 << "" << -1;
        QTest::newRow("next: the question") << "n" << LessonStage::Predict << 2 << before << 0 << "" << -1;
        QTest::newRow("no choice: next asks nothing") << "n n" << LessonStage::Predict << 2 << before << 0 << "" << -1;
        QTest::newRow("Run button without a choice") << "n r" << LessonStage::Predict << 2 << before << 0 << "" << -1;
        QTest::newRow("a choice, then next asks for the run")
            << "n c:b n" << LessonStage::Predict << 2 << before << 1 << "b" << -1;
        QTest::newRow("skipped, then the Run button") << "n s r" << LessonStage::Predict << 2 << before << 1 << "" << -1;
        QTest::newRow("a choice not of the lesson is refused")
            << "n c:z" << LessonStage::Predict << 2 << before << 0 << "" << -1;
        QTest::newRow("picking again replaces") << "n c:a c:c" << LessonStage::Predict << 2 << before << 0 << "c" << -1;
        QTest::newRow("the run began") << "n c:a b" << LessonStage::Running << 3 << before << 0 << "a" << -1;
        QTest::newRow("keys do nothing while running")
            << "n c:a b n p n" << LessonStage::Running << 3 << before << 0 << "a" << -1;
        QTest::newRow("the prediction is locked while running")
            << "n c:a b c:b s" << LessonStage::Running << 3 << before << 0 << "a" << -1;
        QTest::newRow("judged: the first focus") << "n c:c b f:J" << LessonStage::Focus << 4 << 6 << 0 << "c" << 0;
        QTest::newRow("a focus that picked nothing is no step")
            << "n c:c b f:J n" << LessonStage::Focus << 5 << 6 << 0 << "c" << 2;
        QTest::newRow("then the results") << "n c:c b f:J n n" << LessonStage::Results << 6 << 6 << 0 << "c" << -1;
        QTest::newRow("results is the last step")
            << "n c:c b f:J n n n n" << LessonStage::Results << 6 << 6 << 0 << "c" << -1;
        QTest::newRow("back from the results: the last focus")
            << "n c:c b f:J n n p" << LessonStage::Focus << 5 << 6 << 0 << "c" << 2;
        QTest::newRow("back to the question and on again: no second run")
            << "n c:c b f:J p n" << LessonStage::Focus << 4 << 6 << 0 << "c" << 0;
        QTest::newRow("back to the question keeps the prediction locked")
            << "n c:c b f:J p c:a" << LessonStage::Predict << 2 << 6 << 0 << "c" << -1;
        QTest::newRow("a click on a focus") << "n c:c b f:J g:1" << LessonStage::Focus << 5 << 6 << 0 << "c" << 2;
        QTest::newRow("a click past the list") << "n c:c b f:J g:2" << LessonStage::Focus << 4 << 6 << 0 << "c" << 0;
        QTest::newRow("cancelled: straight to the results")
            << "n c:c b f:U" << LessonStage::Results << 4 << 4 << 0 << "c" << -1;
        QTest::newRow("cancelled, back: the question") << "n c:c b f:U p" << LessonStage::Predict << 2 << 4 << 0 << "c" << -1;
        QTest::newRow("Run again from the results")
            << "n c:c b f:J n n r" << LessonStage::Results << 6 << 6 << 1 << "c" << -1;
        QTest::newRow("a result only while running counts")
            << "n c:c f:J" << LessonStage::Predict << 2 << before << 0 << "c" << -1;
        QTest::newRow("opening again starts over") << "n c:c b f:J o" << LessonStage::Intro << 1 << before << 0 << "" << -1;
    }

    void steps()
    {
        QFETCH(QString, script);
        QFETCH(LessonStage, stage);
        QFETCH(int, stepNumber);
        QFETCH(int, stepCount);
        QFETCH(int, runRequests);
        QFETCH(QString, choice);
        QFETCH(int, focus);

        LessonSession session;
        QVERIFY(session.open(&lesson()));
        QSignalSpy requests(&session, &LessonSession::runRequested);
        play(session, script);
        QCOMPARE(session.stage(), stage);
        QCOMPARE(session.stepNumber(), stepNumber);
        QCOMPARE(session.stepCount(), stepCount);
        QCOMPARE(requests.count(), runRequests);
        QCOMPARE(QString::fromStdString(session.choice()), choice);
        QCOMPARE(session.currentFocus(), focus);
    }

    void openRefusedWhileRunning()
    {
        LessonSession session;
        QVERIFY(session.open(&lesson()));
        play(session, "n c:a b");
        const Lesson* other = findLesson("issue-order");
        QVERIFY(other);
        QVERIFY(!session.open(other));
        QCOMPARE(session.lesson(), &lesson());
        QCOMPARE(session.stage(), LessonStage::Running);
    }

    void verdictLine_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("line");
        QTest::addColumn<bool>("right");
        QTest::newRow("right") << "n c:c b f:J" << "You predicted c) 2x or more: right, that is the answer." << true;
        QTest::newRow("wrong") << "n c:a b f:J"
                               << "You predicted a) about the same speed; the answer is c) 2x or more." << false;
        QTest::newRow("skipped") << "n s b f:J" << "You skipped the prediction; the answer is c) 2x or more." << false;
        QTest::newRow("not judged: no verdict") << "n c:c b f:U" << "" << false;
        QTest::newRow("before the run: none") << "n c:c" << "" << false;
    }

    void verdictLine()
    {
        QFETCH(QString, script);
        QFETCH(QString, line);
        QFETCH(bool, right);
        LessonSession session;
        QVERIFY(session.open(&lesson()));
        play(session, script);
        QCOMPARE(session.verdictLine(), line);
        QCOMPARE(session.predictedRight(), right);
    }
};

QTEST_GUILESS_MAIN(TestLessonSession)
#include "tst_lesson_session.moc"
