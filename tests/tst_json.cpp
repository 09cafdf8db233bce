#include "JsonTree.h"
#include "io/JsonTextScan.h"
#include "io/JsonWriter.h"

#include <QtTest>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>

using namespace ovs;
using namespace ovs::test;

namespace {

std::string_view view(const QByteArray& bytes) { return {bytes.constData(), static_cast<std::size_t>(bytes.size())}; }

} // namespace

class TestJson : public QObject {
    Q_OBJECT

private slots:
    void acceptsValidJson_data();
    void acceptsValidJson();
    void rejectsInvalidJson_data();
    void rejectsInvalidJson();
    void keepsIntegersExact();
    void largeIntegersBecomeDoubles();
    void decodesSurrogatePairsToUtf8();
    void keepsObjectOrderAndFinds();
    void nestingAtTheLimitIsAccepted();
    void deepNestingIsRejectedCleanly_data();
    void deepNestingIsRejectedCleanly();
    void writerRoundTrip();
    void writerEscapes();
    void writerKeepsDoublesDouble();
    void writerDecimal_data();
    void writerDecimal();
    void writerStreamsLongStringsInPieces();
    void writerJoinsStringParts();
    void everyTruncationFailsWithoutCrashing();
    void randomBytesNeverCrash();
    void textScanFindsTheFirstSpecialByte();
};

void TestJson::acceptsValidJson_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QByteArray>("compact");

    QTest::newRow("null") << QByteArray("null") << QByteArray("null");
    QTest::newRow("true with whitespace") << QByteArray(" \t\r\ntrue \n") << QByteArray("true");
    QTest::newRow("false") << QByteArray("false") << QByteArray("false");
    QTest::newRow("zero") << QByteArray("0") << QByteArray("0");
    QTest::newRow("negative zero is integer zero") << QByteArray("-0") << QByteArray("0");
    QTest::newRow("integer") << QByteArray("-123456789") << QByteArray("-123456789");
    QTest::newRow("int64 min") << QByteArray("-9223372036854775808") << QByteArray("-9223372036854775808");
    QTest::newRow("int64 max") << QByteArray("9223372036854775807") << QByteArray("9223372036854775807");
    QTest::newRow("fraction") << QByteArray("1.5") << QByteArray("1.5");
    QTest::newRow("exponent makes a double") << QByteArray("1e2") << QByteArray("100.0");
    QTest::newRow("negative exponent") << QByteArray("25E-2") << QByteArray("0.25");
    QTest::newRow("plus exponent") << QByteArray("1.5e+3") << QByteArray("1500.0");
    QTest::newRow("tiny double") << QByteArray("5e-324") << QByteArray("5e-324");
    QTest::newRow("empty string") << QByteArray("\"\"") << QByteArray("\"\"");
    QTest::newRow("escapes") << QByteArray(R"("\"\\\/\b\f\n\r\t")") << QByteArray(R"("\"\\/\b\f\n\r\t")");
    QTest::newRow("unicode escape to UTF-8") << QByteArray(R"("caf\u00e9")") << QByteArray("\"caf\xc3\xa9\"");
    QTest::newRow("raw UTF-8 kept") << QByteArray("\"\xe2\x80\x94\"") << QByteArray("\"\xe2\x80\x94\"");
    QTest::newRow("escaped control char") << QByteArray(R"("\u0001")") << QByteArray(R"("\u0001")");
    QTest::newRow("empty array") << QByteArray("[ ]") << QByteArray("[]");
    QTest::newRow("empty object") << QByteArray("{ }") << QByteArray("{}");
    QTest::newRow("array") << QByteArray("[1, 2.5, \"x\", null, [true]]") << QByteArray("[1,2.5,\"x\",null,[true]]");
    QTest::newRow("object") << QByteArray("{\"a\" : 1 , \"b\":{\"c\":[]}}") << QByteArray("{\"a\":1,\"b\":{\"c\":[]}}");
    // Strings and keys are looked through eight bytes at a time for quotes,
    // backslashes and control characters: found in any place of a word.
    QTest::newRow("escape after two words") << QByteArray(R"("0123456789abcdef\"x\\y")")
                                            << QByteArray(R"("0123456789abcdef\"x\\y")");
    QTest::newRow("escape at a word's end") << QByteArray(R"("0123456\n")") << QByteArray(R"("0123456\n")");
    QTest::newRow("UTF-8 across words") << QByteArray("\"abcdef\xe2\x80\x94ghijklm\xc3\xa9\"")
                                        << QByteArray("\"abcdef\xe2\x80\x94ghijklm\xc3\xa9\"");
    QTest::newRow("long keys with escapes") << QByteArray(R"({"est. achieved occupancy %":1,"x\u0041bcdefghijk":2})")
                                            << QByteArray(R"({"est. achieved occupancy %":1,"xAbcdefghijk":2})");
    // Numbers are read in one pass where plain (no exponent, 19 digits or fewer).
    QTest::newRow("19 digits with a point") << QByteArray("1234567890.123456789") << QByteArray("1234567890.1234567");
    QTest::newRow("20 digits") << QByteArray("12345678901234567890") << QByteArray("12345678901234567168.0");
    QTest::newRow("zero with a fraction") << QByteArray("-0.000") << QByteArray("-0.0");
    // The duplicate check compares a key's length and first eight bytes first.
    QTest::newRow("keys alike in length and first eight bytes") << QByteArray(R"({"External id":1,"External ix":2})")
                                                                << QByteArray(R"({"External id":1,"External ix":2})");
}

void TestJson::acceptsValidJson()
{
    QFETCH(QByteArray, text);
    QFETCH(QByteArray, compact);
    // Traces are objects: every value is read as an element of an array.
    const auto result = parseJson(view("[" + text + "]"));
    QVERIFY2(result.value.has_value(), result.error.c_str());
    QVERIFY(result.error.empty());
    QCOMPARE(QByteArray::fromStdString(result.value->toText()), "[" + compact + "]");
    const auto skipped = parseJson(view("[" + text + "]"), /*skipOnly=*/true);
    QVERIFY2(skipped.error.empty(), skipped.error.c_str());
}

void TestJson::rejectsInvalidJson_data()
{
    // Each text is read as the element of an array ("[" + text + "]"), as in
    // a trace; columns count from that "[".
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("message");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");

    const QString misplaced = ": a value, comma, colon, bracket or brace is missing or misplaced";
    QTest::newRow("unclosed array") << QByteArray("[1,2") << "unexpected end of input" << 1 << 7;
    QTest::newRow("unclosed string at the end") << QByteArray("[\"a") << "unexpected end of input in a string" << 1 << 3;
    QTest::newRow("missing comma") << QByteArray("[\n  1,\n  2\n  3\n]") << "unexpected '3'" + misplaced << 4 << 3;
    QTest::newRow("trailing comma in array") << QByteArray("[1,]") << "unexpected ']'" + misplaced << 1 << 5;
    QTest::newRow("trailing comma in object") << QByteArray("{\"a\":1,}") << "unexpected '}'" + misplaced << 1 << 9;
    QTest::newRow("unquoted key") << QByteArray("{a:1}") << "unexpected 'a'" + misplaced << 1 << 3;
    QTest::newRow("missing colon") << QByteArray("{\"a\" 1}") << "unexpected '1'" + misplaced << 1 << 7;
    QTest::newRow("missing brace") << QByteArray("{\"a\":1") << "unexpected ']'" + misplaced << 1 << 8;
    QTest::newRow("leading zero") << QByteArray("[01]") << "invalid number" << 1 << 3;
    QTest::newRow("negative leading zero") << QByteArray("-012") << "invalid number" << 1 << 2;
    QTest::newRow("NaN") << QByteArray("NaN") << "unexpected 'N'" + misplaced << 1 << 2;
    QTest::newRow("Infinity") << QByteArray("[Infinity]") << "unexpected 'I'" + misplaced << 1 << 3;
    QTest::newRow("minus Infinity") << QByteArray("-Infinity") << "invalid number" << 1 << 2;
    QTest::newRow("plus sign") << QByteArray("+1") << "unexpected '+'" + misplaced << 1 << 2;
    QTest::newRow("bare dot") << QByteArray(".5") << "unexpected '.'" + misplaced << 1 << 2;
    QTest::newRow("dot without digits") << QByteArray("1.") << "invalid number 1." << 1 << 2;
    QTest::newRow("empty exponent") << QByteArray("1e") << "invalid number 1e" << 1 << 2;
    QTest::newRow("huge double") << QByteArray("[1e400]") << "number out of range for a double: 1e400" << 1 << 3;
    QTest::newRow("bad literal") << QByteArray("tru") << "unexpected 't'" + misplaced << 1 << 2;
    QTest::newRow("nul literal") << QByteArray("[nul]") << "unexpected 'n'" + misplaced << 1 << 3;
    QTest::newRow("trailing garbage") << QByteArray("{} x") << "unexpected 'x'" + misplaced << 1 << 5;
    QTest::newRow("two values") << QByteArray("1 2") << "unexpected '2'" + misplaced << 1 << 4;
    QTest::newRow("comment") << QByteArray("// hi\n{}") << "unexpected '/'" + misplaced << 1 << 2;
    QTest::newRow("unterminated string") << QByteArray("\"abc") << "unexpected end of input in a string" << 1 << 2;
    QTest::newRow("raw newline in string") << QByteArray("\"a\nb\"") << "control character U+000A in a string must be escaped" << 1 << 4;
    QTest::newRow("raw tab in string") << QByteArray("\"a\tb\"") << "control character U+0009" << 1 << 4;
    QTest::newRow("raw tab in a string's second word") << QByteArray("\"0123456789abc\tdef\"") << "control character U+0009"
                                                      << 1 << 16;
    QTest::newRow("raw tab in a long key") << QByteArray("{\"abcdefghij\tk\":1}") << "control character U+0009" << 1 << 14;
    QTest::newRow("leading zero after a minus in a fraction") << QByteArray("-01.5") << "invalid number" << 1 << 2;
    QTest::newRow("point after 19 digits") << QByteArray("[1234567890123456789.]") << "invalid number" << 1 << 3;
    QTest::newRow("bad escape") << QByteArray(R"(["\x"])") << "invalid escape in a string" << 1 << 3;
    QTest::newRow("short unicode escape") << QByteArray(R"("\u12")") << "invalid escape in a string" << 1 << 2;
    QTest::newRow("lone high surrogate") << QByteArray(R"("\ud800")") << "unpaired \\u surrogate" << 1 << 2;
    QTest::newRow("high then non-low") << QByteArray(R"("\ud800\u0041")") << "unpaired \\u surrogate" << 1 << 2;
    QTest::newRow("lone low surrogate") << QByteArray(R"("x\udc00")") << "unpaired \\u surrogate" << 1 << 2;
    QTest::newRow("invalid UTF-8 byte") << QByteArray("\"\xff\"") << "invalid UTF-8" << 1 << 3;
    QTest::newRow("overlong UTF-8") << QByteArray("\"\xc0\xaf\"") << "invalid UTF-8" << 1 << 3;
    QTest::newRow("UTF-8 surrogate") << QByteArray("\"\xed\xa0\x80\"") << "invalid UTF-8" << 1 << 3;
    QTest::newRow("truncated UTF-8") << QByteArray("\"\xe2\x80") << "unexpected end of input in a string" << 1 << 2;
    QTest::newRow("binary outside string") << QByteArray("\x89PNG") << "invalid UTF-8" << 1 << 2;
    QTest::newRow("duplicate key") << QByteArray("{\"a\":1,\"a\":2}") << "duplicate key \"a\"" << 1 << 9;
    // Unescaping a key consumes it in simdjson: the place is taken before.
    QTest::newRow("duplicate key longer than eight bytes") << QByteArray(R"({"correlation":1,"External id":2,"correlation":3})")
                                                          << "duplicate key \"correlation\"" << 1 << 35;
    QTest::newRow("duplicate key by escape") << QByteArray(R"({"a":1,"\u0061":2})") << "duplicate key \"a\"" << 1 << 9;
    QTest::newRow("column counts characters") << QByteArray("[\"\xc3\xa9\" x]") << "unexpected 'x'" + misplaced << 1 << 7;
    QTest::newRow("error on a later line") << QByteArray("{\"a\":1}\n\n   }") << "unexpected '}'" + misplaced << 3 << 4;
}

void TestJson::rejectsInvalidJson()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, message);
    QFETCH(int, line);
    QFETCH(int, column);
    const auto result = parseJson(view("[" + text + "]"));
    QVERIFY(!result.value.has_value());
    const QString error = QString::fromStdString(result.error);
    QVERIFY2(error.contains(message), qPrintable(error));
    QCOMPARE(result.line, line);
    QCOMPARE(result.column, column);
    QVERIFY2(error.startsWith(QStringLiteral("line %1, column %2: ").arg(line).arg(column)), qPrintable(error));
    // Skipped (a member no reader knows), the same text is refused in the same words.
    const auto skipped = parseJson(view("[" + text + "]"), /*skipOnly=*/true);
    QVERIFY(!skipped.value.has_value());
    QCOMPARE(QString::fromStdString(skipped.error), error);
}

void TestJson::keepsIntegersExact()
{
    // 2^53 + 1 does not survive a double.
    const auto result = parseJson("[9007199254740993, -9007199254740993]");
    QVERIFY(result.value);
    const auto& a = result.value->asArray();
    QVERIFY(a[0].isInteger());
    QCOMPARE(a[0].asInteger(), std::int64_t(9007199254740993));
    QCOMPARE(a[1].asInteger(), std::int64_t(-9007199254740993));
}

void TestJson::largeIntegersBecomeDoubles()
{
    const auto result = parseJson("[9223372036854775808, -9223372036854775809, 100000000000000000000000]");
    QVERIFY2(result.value, result.error.c_str());
    const auto& a = result.value->asArray();
    QVERIFY(a[0].isDouble());
    QCOMPARE(a[0].asDouble(), 9223372036854775808.0);
    QVERIFY(a[1].isDouble());
    QCOMPARE(a[1].asDouble(), -9223372036854775808.0);
    QVERIFY(a[2].isDouble());
    QCOMPARE(a[2].asDouble(), 1e23);
}

void TestJson::decodesSurrogatePairsToUtf8()
{
    const auto result = parseJson(R"(["\ud83d\ude00 \uD834\uDD1E"])");
    QVERIFY2(result.value, result.error.c_str());
    QCOMPARE(result.value->asArray().at(0).asString(), std::string("\xf0\x9f\x98\x80 \xf0\x9d\x84\x9e"));
}

void TestJson::keepsObjectOrderAndFinds()
{
    const auto result = parseJson(R"({"zeta":1,"alpha":{"x":true},"mid":"m"})");
    QVERIFY(result.value);
    QCOMPARE(result.value->toText(), std::string(R"({"zeta":1,"alpha":{"x":true},"mid":"m"})"));
    const Json* alpha = result.value->find("alpha");
    QVERIFY(alpha);
    QVERIFY(alpha->find("x"));
    QCOMPARE(alpha->find("x")->asBool(), true);
    QVERIFY(!result.value->find("missing"));
    QVERIFY(!Json(3).find("x"));

    Json object = Json::object();
    object.set("b", 1);
    object.set("a", 2);
    object.set("b", "again");
    QCOMPARE(object.toText(), std::string(R"({"b":"again","a":2})"));
}

void TestJson::nestingAtTheLimitIsAccepted()
{
    const std::string text = std::string(kJsonMaxDepth, '[') + std::string(kJsonMaxDepth, ']');
    const auto result = parseJson(text);
    QVERIFY2(result.value, result.error.c_str());
    QCOMPARE(result.value->toText(), text);
}

void TestJson::deepNestingIsRejectedCleanly_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("column");
    const int over = kJsonMaxDepth + 1;
    QTest::newRow("one past the limit") << QByteArray(over, '[') + QByteArray(over, ']') << over;
    QTest::newRow("a million arrays") << QByteArray(1000000, '[') << over;
    QByteArray objects;
    for (int i = 0; i < 100000; ++i)
        objects += "{\"a\":";
    // Refused at the first key inside the level past the limit.
    QTest::newRow("nested objects") << objects << 5 * kJsonMaxDepth + 2;
}

void TestJson::deepNestingIsRejectedCleanly()
{
    QFETCH(QByteArray, text);
    QFETCH(int, column);
    const auto result = parseJson(view(text));
    QVERIFY(!result.value);
    QVERIFY2(QString::fromStdString(result.error).contains("nesting deeper than 256 levels"), result.error.c_str());
    QCOMPARE(result.line, 1);
    QCOMPARE(result.column, column);
}

void TestJson::writerRoundTrip()
{
    Json::Array numbers{0.1,
                        1e-300,
                        5e-324,
                        std::numeric_limits<double>::max(),
                        -2.5,
                        1.0 / 3.0,
                        123456789.123456789,
                        std::numeric_limits<std::int64_t>::min(),
                        std::numeric_limits<std::int64_t>::max(),
                        0};
    Json value = Json::object();
    value.set("numbers", Json(numbers));
    value.set("text", std::string("quote \" backslash \\ newline \n tab \t nul ") + '\0' + " \x1f em \xe2\x80\x94 end");
    value.set("flags", Json(Json::Array{true, false, nullptr}));
    value.set("empty", Json::object());
    value.set("nested", Json(Json::Array{Json(Json::Array{}), Json(Json::Array{Json::object()})}));

    const std::string text = value.toText();
    const auto result = parseJson(text);
    QVERIFY2(result.value, result.error.c_str());
    QVERIFY(*result.value == value);
    QCOMPARE(result.value->toText(), text);
    // Every double came back bit-identical, not just close.
    const auto& back = result.value->find("numbers")->asArray();
    for (std::size_t i = 0; i < numbers.size(); ++i) {
        QCOMPARE(back[i].type(), numbers[i].type());
        QCOMPARE(back[i].asDouble(), numbers[i].asDouble());
    }
}

void TestJson::writerEscapes()
{
    QCOMPARE(Json(std::string("a\"b\\c\nd\x01\x7f")).toText(), std::string(R"("a\"b\\c\nd\u0001)" "\x7f\""));
    QCOMPARE(Json(std::string("\b\f\r\t/")).toText(), std::string(R"("\b\f\r\t/")"));
    QCOMPARE(Json(std::string(1, '\0')).toText(), std::string(R"("\u0000")"));
    // Keys are escaped too.
    Json object = Json::object();
    object.set("k\"ey", 1);
    QCOMPARE(object.toText(), std::string("{\"k\\\"ey\":1}"));
}

void TestJson::writerKeepsDoublesDouble()
{
    QCOMPARE(Json(2.0).toText(), std::string("2.0"));
    QCOMPARE(Json(-0.0).toText(), std::string("-0.0"));
    QCOMPARE(Json(1e300).toText(), std::string("1e+300"));
    QCOMPARE(Json(0.1).toText(), std::string("0.1"));
    QCOMPARE(Json(std::numeric_limits<double>::quiet_NaN()).toText(), std::string("null"));
    QCOMPARE(Json(std::numeric_limits<double>::infinity()).toText(), std::string("null"));
    // Read back inside an array: parseJson refuses a scalar document.
    const JsonParseResult two = parseJson("[" + Json(2.0).toText() + "]");
    QVERIFY2(two.value, two.error.c_str());
    QCOMPARE(two.value->asArray().size(), std::size_t(1));
    QVERIFY(two.value->asArray().front().isDouble());
    // uint64 beyond int64 cannot stay an integer; it must not wrap negative.
    const Json huge(std::numeric_limits<std::uint64_t>::max());
    QVERIFY(huge.isDouble());
    QVERIFY(huge.asDouble() > 1e19);
}

void TestJson::writerDecimal_data()
{
    QTest::addColumn<qint64>("scaled");
    QTest::addColumn<int>("decimals");
    QTest::addColumn<QString>("text");
    QTest::newRow("micros") << qint64(1234567) << 3 << "1234.567";
    QTest::newRow("below one") << qint64(5) << 3 << "0.005";
    QTest::newRow("zero") << qint64(0) << 3 << "0.000";
    QTest::newRow("negative") << qint64(-1500) << 3 << "-1.500";
    QTest::newRow("no decimals") << qint64(42) << 0 << "42";
    QTest::newRow("int64 min") << qint64(std::numeric_limits<qint64>::min()) << 3 << "-9223372036854775.808";
}

void TestJson::writerDecimal()
{
    QFETCH(qint64, scaled);
    QFETCH(int, decimals);
    QFETCH(QString, text);
    std::string out;
    JsonWriter writer(out);
    writer.beginArray();
    writer.decimal(scaled, decimals);
    writer.decimal(scaled, decimals);
    writer.endArray();
    QCOMPARE(QString::fromStdString(out), "[" + text + "," + text + "]");
    QVERIFY(parseJson(out).value);
}

void TestJson::writerStreamsLongStringsInPieces()
{
    // 20 MiB of text with characters that need escapes spread through it
    // (also across the writer's 1 MiB pieces): a streaming writer hands it
    // over in pieces, never one escaped copy of the whole string, and the
    // pieces together are exactly what the one-buffer writer writes.
    std::string text(20u << 20, 'n');
    for (std::size_t i = 0; i < text.size(); i += 4093)
        text[i] = (i / 4093) % 2 ? '"' : '\n';
    std::string whole;
    {
        JsonWriter writer(whole);
        writer.beginObject();
        writer.member("name", text);
        writer.endObject();
    }
    std::string streamed;
    std::string buffer;
    std::size_t largestPiece = 0;
    int pieces = 0;
    {
        JsonWriter writer(buffer, [&](std::string_view piece) {
            streamed.append(piece);
            largestPiece = std::max(largestPiece, piece.size());
            ++pieces;
        });
        writer.beginObject();
        writer.member("name", text);
        writer.endObject();
        writer.flush();
    }
    QCOMPARE(streamed.size(), whole.size());
    QVERIFY(streamed == whole);
    QVERIFY2(pieces >= 20, qPrintable(QString::number(pieces)));
    // A piece is at most 1 MiB of text escaped (at most 2 bytes each here) plus what came before it.
    QVERIFY2(largestPiece <= (4u << 20), qPrintable(QString::number(largestPiece)));
    const auto parsed = parseJson(whole);
    QVERIFY(parsed.value);
}

void TestJson::writerJoinsStringParts()
{
    std::string out;
    JsonWriter writer(out);
    writer.beginArray();
    writer.value({"a\"b", " \u2014 ", "c\n"});
    writer.value(std::string_view("a\"b \u2014 c\n"));
    writer.endArray();
    QCOMPARE(QString::fromStdString(out), QStringLiteral("[\"a\\\"b \u2014 c\\n\",\"a\\\"b \u2014 c\\n\"]"));
}

void TestJson::everyTruncationFailsWithoutCrashing()
{
    const std::string text =
        R"({"a":[1,-2.5e-3,true,false,null,"s\u00e9\n\ud83d\ude00"],"b":{"c":{}},"d":"caf)" "\xc3\xa9" R"("})";
    QVERIFY(parseJson(text).value);
    for (std::size_t n = 1; n < text.size(); ++n) { // n = 0 is the empty text
        const auto result = parseJson(std::string_view(text).substr(0, n));
        QVERIFY2(!result.value, qPrintable(QStringLiteral("prefix of length %1 was accepted").arg(n)));
        QVERIFY(!result.error.empty());
        QVERIFY(result.line >= 1 && result.column >= 1);
    }
}

void TestJson::randomBytesNeverCrash()
{
    const std::string base = R"({"k":[1,2.5,"x\u0041",{"n":null,"t":true}],"e":-1e5})";
    std::mt19937 random(12345);
    int accepted = 0;
    for (int i = 0; i < 20000; ++i) {
        std::string text = base;
        const int edits = 1 + static_cast<int>(random() % 4);
        for (int e = 0; e < edits; ++e)
            text[random() % text.size()] = static_cast<char>(random() % 256);
        const auto result = parseJson(text);
        if (result.value) {
            ++accepted;
            // Whatever was accepted must write and read back to the same value.
            QVERIFY(*parseJson(result.value->toText()).value == *result.value);
        } else {
            QVERIFY(!result.error.empty());
        }
    }
    QVERIFY(accepted < 20000);
}

QTEST_APPLESS_MAIN(TestJson)
#include "tst_json.moc"

// The reader's scan of strings and keys (io/JsonTextScan.h), word by word and
// by SSE2 where the machine has it, against a byte loop: every start and
// length, bytes around each kind of special (0x1F and 0x20, 0x5B and 0x5C,
// 0x21 to 0x23, bytes with the high bit), and specials just past the end,
// which must not count.
void TestJson::textScanFindsTheFirstSpecialByte()
{
    const auto special = [](unsigned char c) { return c == '"' || c == '\\' || c < 0x20; };
    const unsigned char alphabet[] = {'a', 'Z', ' ', '!', '"', '#', '[', '\\', ']', 0x00, 0x09, 0x1F, 0x7F, 0x80, 0x9C, 0xA2, 0xDC, 0xFF};
    std::mt19937 random(29);
    std::uniform_int_distribution<std::size_t> pick(0, sizeof alphabet - 1);
    std::uniform_int_distribution<int> plain(0, 5);
    int compared = 0;
    for (int round = 0; round < 2000; ++round) {
        // Mostly plain letters, so that runs of every length occur.
        char buffer[96 + 16];
        for (char& c : buffer)
            c = static_cast<char>(plain(random) != 0 ? 'a' + plain(random) : alphabet[pick(random)]);
        for (std::size_t begin = 0; begin < 8; ++begin)
            for (std::size_t length = 0; length + begin <= 96; length += 1 + round % 5) {
                const char* p = buffer + begin;
                const char* end = p + length;
                const char* expected = p;
                while (expected < end && !special(static_cast<unsigned char>(*expected)))
                    ++expected;
                QCOMPARE(static_cast<const void*>(jsonscan::firstSpecialByWords(p, end)), static_cast<const void*>(expected));
#if defined(__SSE2__)
                QCOMPARE(static_cast<const void*>(jsonscan::firstSpecialBySse2(p, end)), static_cast<const void*>(expected));
#endif
                ++compared;
            }
    }
    QVERIFY(compared > 100000);
}
