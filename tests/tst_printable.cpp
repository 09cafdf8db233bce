// Names and input made safe for a terminal and short enough for a message.
#include "base/Printable.h"
#include "base/ShortenedText.h"

#include <QtTest>

using namespace ovs;

class TestPrintable : public QObject {
    Q_OBJECT

private slots:
    void escapesWhatATerminalWouldObey_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QByteArray>("shown");
        QTest::newRow("plain") << QByteArray("overlapped pinned") << QByteArray("overlapped pinned");
        QTest::newRow("utf-8 kept") << QByteArray("H200 \xc2\xb5s \xe2\x86\x92 \xf0\x9f\x9a\x80")
                                    << QByteArray("H200 \xc2\xb5s \xe2\x86\x92 \xf0\x9f\x9a\x80");
        QTest::newRow("newline, tab, return") << QByteArray("a\nb\tc\rd") << QByteArray("a\\nb\\tc\\rd");
        QTest::newRow("retitle the terminal") << QByteArray("\x1b]0;pwned\x07") << QByteArray("\\x1b]0;pwned\\x07");
        QTest::newRow("clear screen") << QByteArray("\x1b[2J") << QByteArray("\\x1b[2J");
        QTest::newRow("NUL and DEL") << QByteArray("a\0b\x7f", 4) << QByteArray("a\\x00b\\x7f");
        QTest::newRow("C1 CSI") << QByteArray("\xc2\x9b" "2J") << QByteArray("\\u009b2J");
        QTest::newRow("bidi override") << QByteArray("abc\xe2\x80\xae" "def") << QByteArray("abc\\u202edef");
        QTest::newRow("line separator") << QByteArray("a\xe2\x80\xa8" "b") << QByteArray("a\\u2028b");
        QTest::newRow("invalid byte") << QByteArray("a\xff" "b") << QByteArray("a\\xffb");
        QTest::newRow("truncated sequence") << QByteArray("a\xe2\x86") << QByteArray("a\\xe2\\x86");
        QTest::newRow("overlong") << QByteArray("\xc0\x8a") << QByteArray("\\xc0\\x8a");
        QTest::newRow("surrogate") << QByteArray("\xed\xa0\x80") << QByteArray("\\xed\\xa0\\x80");
    }
    void escapesWhatATerminalWouldObey()
    {
        QFETCH(QByteArray, text);
        QFETCH(QByteArray, shown);
        QCOMPARE(QByteArray::fromStdString(printable(text.toStdString())), shown);
    }

    void clipsToWholeCharacters_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("maxChars");
        QTest::addColumn<QByteArray>("clippedText");
        QTest::newRow("short enough") << QByteArray("abc") << 3 << QByteArray("abc");
        QTest::newRow("one too long") << QByteArray("abcd") << 3 << QByteArray("ab\xe2\x80\xa6");
        QTest::newRow("multibyte kept whole") << QByteArray("\xc2\xb5\xc2\xb5\xc2\xb5\xc2\xb5") << 3
                                              << QByteArray("\xc2\xb5\xc2\xb5\xe2\x80\xa6");
        QTest::newRow("emoji fits") << QByteArray("\xf0\x9f\x9a\x80\xf0\x9f\x9a\x80") << 2
                                    << QByteArray("\xf0\x9f\x9a\x80\xf0\x9f\x9a\x80");
        QTest::newRow("one character") << QByteArray("abc") << 1 << QByteArray("\xe2\x80\xa6");
        QTest::newRow("nothing") << QByteArray("abc") << 0 << QByteArray("");
        QTest::newRow("empty") << QByteArray("") << 5 << QByteArray("");
    }
    void clipsToWholeCharacters()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, maxChars);
        QFETCH(QByteArray, clippedText);
        QCOMPARE(QByteArray::fromStdString(clipped(text.toStdString(), std::size_t(maxChars))), clippedText);
    }

    void aHugeEchoStaysWithinTheLimit()
    {
        const std::string digits(100000, '7');
        const std::string shown = echoed(digits);
        QCOMPARE(QString::fromStdString(shown).size(), qsizetype(kEchoLimit));
        QVERIFY(QString::fromStdString(shown).endsWith(QChar(0x2026)));
        // Escaping happens first, so an escape is never cut in half into a raw byte.
        const std::string escapes(1000, '\x1b');
        QVERIFY(echoed(escapes).find('\x1b') == std::string::npos);
    }

    // The one rule by which the window and the console shorten names
    // (base/ShortenedText.h): characters counted as UTF-16 counts them.
    void shortensNamesAsTheWindowDoes_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("maxChars");
        QTest::addColumn<QByteArray>("shown");
        QTest::newRow("fits") << QByteArray("stream 0") << 8 << QByteArray("stream 0");
        QTest::newRow("one too long") << QByteArray("abcdef") << 5 << QByteArray("abcd\xe2\x80\xa6");
        QTest::newRow("two-byte characters") << QByteArray("\xc3\xa9\xc3\xa9\xc3\xa9") << 2
                                             << QByteArray("\xc3\xa9\xe2\x80\xa6");
        // U+1D518 is two UTF-16 units: two of them fill 4, the "…" needs a fifth.
        QTest::newRow("beyond U+FFFF counts two") << QByteArray("\xf0\x9d\x94\x98\xf0\x9d\x94\x98\xf0\x9d\x94\x98")
                                                  << 5 << QByteArray("\xf0\x9d\x94\x98\xf0\x9d\x94\x98\xe2\x80\xa6");
        QTest::newRow("bytes that are not UTF-8 count one each") << QByteArray("\xff\xff\xff\xff") << 3
                                                                 << QByteArray("\xff\xff\xe2\x80\xa6");
        QTest::newRow("at least the …") << QByteArray("abc") << 0 << QByteArray("\xe2\x80\xa6");
    }
    void shortensNamesAsTheWindowDoes()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, maxChars);
        QFETCH(QByteArray, shown);
        QCOMPARE(QByteArray::fromStdString(shortenedText(text.toStdString(), std::size_t(maxChars))), shown);
    }

    void aHugeNameIsShownShort()
    {
        const std::string name(200u << 20, 'n'); // the hostile-input table's 200 MiB run name
        const std::string shown = shortenedText(name);
        QCOMPARE(shown.size(), kDisplayTextChars - 1 + 3); // 255 characters and the 3 bytes of "…"
        QCOMPARE(shown.find_first_not_of('n'), kDisplayTextChars - 1);
        QVERIFY(shown.ends_with("\xe2\x80\xa6"));
    }
};

QTEST_GUILESS_MAIN(TestPrintable)
#include "tst_printable.moc"
