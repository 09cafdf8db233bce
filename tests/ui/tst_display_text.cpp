#include "style/DisplayText.h"

#include <QTest>

#include <string>

using ovs::ui::displayText;

// Names from a trace are shown shortened: whole when short, cut at a
// character boundary with "…" when long, never split inside a UTF-8
// sequence or a UTF-16 surrogate pair.
class TestDisplayText : public QObject {
    Q_OBJECT

private slots:
    void shortTextIsWhole()
    {
        QCOMPARE(displayText("stream 0"), QStringLiteral("stream 0"));
        QCOMPARE(displayText(""), QString());
        QCOMPARE(displayText("caf\xc3\xa9", 4), QStringLiteral("caf\u00e9"));
    }

    void longTextIsCut()
    {
        const std::string name(200u << 20, 'n'); // the hostile-input table's 200 MiB name
        const QString shown = displayText(name);
        QCOMPARE(shown.size(), ovs::ui::kDisplayTextChars);
        QCOMPARE(shown, QString(ovs::ui::kDisplayTextChars - 1, 'n') + QChar(0x2026));
        QCOMPARE(displayText("abcdef", 5), QStringLiteral("abcd\u2026"));
        QCOMPARE(displayText("abcde", 5), QStringLiteral("abcde"));
    }

    void cutsAtCharacterBoundaries()
    {
        // Two-byte characters: the cut never leaves half of one (which would
        // read as U+FFFD).
        std::string accents;
        for (int i = 0; i < 100; ++i)
            accents += "\xc3\xa9";
        const QString shown = displayText(accents, 10);
        QCOMPARE(shown, QString(9, QChar(0xe9)) + QChar(0x2026));
        // Four-byte characters are surrogate pairs in UTF-16: keep pairs whole.
        std::string math;
        for (int i = 0; i < 100; ++i)
            math += "\xf0\x9d\x94\x98"; // U+1D518
        for (int max : {5, 6, 7, 8}) {
            const QString cut = displayText(math, max);
            QVERIFY(cut.size() <= max);
            QVERIFY(cut.endsWith(QChar(0x2026)));
            QVERIFY(!cut.contains(QChar(0xfffd)));
            QVERIFY(!cut.at(cut.size() - 2).isHighSurrogate());
        }
    }

    void invalidUtf8StaysBounded()
    {
        const std::string junk(10000, '\xff');
        const QString shown = displayText(junk, 50);
        QCOMPARE(shown.size(), 50);
        QVERIFY(shown.endsWith(QChar(0x2026)));
    }
};

QTEST_APPLESS_MAIN(TestDisplayText)
#include "tst_display_text.moc"
