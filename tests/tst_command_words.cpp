// The profile dialog's arguments split as a POSIX shell splits them (without
// expansions), and join back into a line that splits the same.
#include "profile/CommandWords.h"

#include <QtTest>

using namespace ovs::profile;

Q_DECLARE_METATYPE(std::vector<std::string>)

class TestCommandWords : public QObject {
    Q_OBJECT

private slots:
    void splits_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QStringList>("words");
        QTest::newRow("empty") << "" << QStringList{};
        QTest::newRow("blanks") << "  \t " << QStringList{};
        QTest::newRow("plain") << "a  bc\td" << QStringList{"a", "bc", "d"};
        QTest::newRow("double quotes") << "--name \"a b\" x" << QStringList{"--name", "a b", "x"};
        QTest::newRow("single quotes keep all") << "'a \\\" $b'" << QStringList{"a \\\" $b"};
        QTest::newRow("escapes in double quotes") << "\"a\\\"b\\\\c\\$d\\n\"" << QStringList{"a\"b\\c$d\\n"};
        QTest::newRow("backslash outside") << "a\\ b \\'c" << QStringList{"a b", "'c"};
        QTest::newRow("adjacent parts join") << "--x=\"1 2\"'3'" << QStringList{"--x=1 23"};
        QTest::newRow("empty words") << "'' \"\"" << QStringList{"", ""};
        QTest::newRow("newlines separate") << "a\nb" << QStringList{"a", "b"};
        QTest::newRow("continued line") << "a\\\nb" << QStringList{"ab"};
    }
    void splits()
    {
        QFETCH(QString, line);
        QFETCH(QStringList, words);
        std::vector<std::string> got;
        std::string why;
        QVERIFY2(splitCommandWords(line.toStdString(), &got, &why), why.c_str());
        QStringList gotList;
        for (const auto& w : got)
            gotList << QString::fromStdString(w);
        QCOMPARE(gotList, words);
        // Joined back, it splits into the same words.
        std::vector<std::string> again;
        QVERIFY(splitCommandWords(joinCommandWords(got), &again, &why));
        QCOMPARE(again, got);
    }

    void refusesWhatAShellWouldWaitOn_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QString>("why");
        QTest::newRow("open double") << "a \"b" << "double quote";
        QTest::newRow("open single") << "it's" << "single quote";
        QTest::newRow("lone backslash") << "a \\" << "backslash";
    }
    void refusesWhatAShellWouldWaitOn()
    {
        QFETCH(QString, line);
        QFETCH(QString, why);
        std::vector<std::string> got;
        std::string reason;
        QVERIFY(!splitCommandWords(line.toStdString(), &got, &reason));
        QVERIFY2(QString::fromStdString(reason).contains(why), reason.c_str());
    }

    void joinQuotesOnlyWhatNeedsIt()
    {
        QCOMPARE(joinCommandWords({"./app", "--n=3", "a b", "it's", ""}),
                 std::string("./app --n=3 'a b' 'it'\\''s' ''"));
    }
};

QTEST_GUILESS_MAIN(TestCommandWords)
#include "tst_command_words.moc"
