#include "UiTestSupport.h"

#include "style/ColorVision.h"
#include "style/OpStyle.h"
#include "style/Theme.h"
#include "timeline/TimelineStyle.h"

#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using ovs::OpKind;
using ovs::ui::ThemeChoice;
using ovs::ui::Vision;
namespace Theme = ovs::ui::Theme;
namespace ColorVision = ovs::ui::ColorVision;

namespace {

// WCAG contrast ratio, for the high-contrast palette.
double contrast(const QColor& a, const QColor& b)
{
    const auto lum = [](const QColor& c) {
        const auto lin = [](double v) { return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
    };
    const double la = lum(a), lb = lum(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

} // namespace

class TestTheme : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;

private slots:
    void initTestCase()
    {
        QVERIFY(ovs::test::useTemporarySettings(m_settingsDir, "tst_theme"));
    }

    void parseNames_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("expected"); // -1: refused
        QTest::newRow("system") << "system" << int(ThemeChoice::System);
        QTest::newRow("Light, any case") << " Light " << int(ThemeChoice::Light);
        QTest::newRow("dark") << "dark" << int(ThemeChoice::Dark);
        QTest::newRow("unknown") << "sepia" << -1;
        QTest::newRow("empty") << "" << -1;
    }

    void parseNames()
    {
        QFETCH(QString, text);
        QFETCH(int, expected);
        const auto parsed = Theme::parse(text);
        QCOMPARE(parsed ? int(*parsed) : -1, expected);
        if (parsed)
            QCOMPARE(Theme::parse(Theme::name(*parsed)), parsed);
    }

    void paletteLightness_data()
    {
        QTest::addColumn<QColor>("window");
        QTest::addColumn<QColor>("text");
        QTest::addColumn<bool>("dark");
        QTest::newRow("white window") << QColor(Qt::white) << QColor(Qt::black) << false;
        QTest::newRow("Breeze light") << QColor(0xef, 0xf0, 0xf1) << QColor(0x23, 0x26, 0x29) << false;
        QTest::newRow("Breeze dark") << QColor(0x31, 0x36, 0x3b) << QColor(0xef, 0xf0, 0xf1) << true;
        QTest::newRow("mid grey, light text") << QColor(0x80, 0x80, 0x80) << QColor(Qt::white) << true;
        QTest::newRow("mid grey, dark text") << QColor(0x90, 0x90, 0x90) << QColor(Qt::black) << false;
    }

    void paletteLightness()
    {
        QFETCH(QColor, window);
        QFETCH(QColor, text);
        QFETCH(bool, dark);
        QPalette palette;
        palette.setColor(QPalette::Window, window);
        palette.setColor(QPalette::WindowText, text);
        QCOMPARE(Theme::paletteIsDark(palette), dark);
    }

    void ourPalettesAreWhatTheySay()
    {
        QVERIFY(!Theme::paletteIsDark(Theme::palette(false)));
        QVERIFY(Theme::paletteIsDark(Theme::palette(true)));
        QCOMPARE(Theme::isDark(ThemeChoice::Light), false);
        QCOMPARE(Theme::isDark(ThemeChoice::Dark), true);
        // The timeline derives a dark style from the dark palette.
        const auto style = ovs::ui::TimelineStyle::from(Theme::palette(true), QFont());
        QVERIFY(style.background.lightness() < 64);
        QVERIFY(style.text.lightness() > 192);
    }

    void applySetsTheApplicationPalette()
    {
        Theme::apply(ThemeChoice::Dark);
        QVERIFY(Theme::paletteIsDark(QApplication::palette()));
        Theme::apply(ThemeChoice::Light);
        QVERIFY(!Theme::paletteIsDark(QApplication::palette()));
        // System follows the desktop as captured before our first apply,
        // not the palette we set since.
        Theme::apply(ThemeChoice::System);
        QCOMPARE(Theme::paletteIsDark(QApplication::palette()), Theme::systemPrefersDark());
    }

    void choiceIsRemembered()
    {
        QSettings().remove("view/theme");
        QCOMPARE(Theme::load(), ThemeChoice::System);
        Theme::save(ThemeChoice::Dark);
        QCOMPARE(Theme::load(), ThemeChoice::Dark);
        QSettings().setValue("view/theme", "neon");
        QCOMPARE(Theme::load(), ThemeChoice::System); // unreadable: the default
    }

    void highContrastPalette_data()
    {
        QTest::addColumn<bool>("dark");
        QTest::newRow("light") << false;
        QTest::newRow("dark") << true;
    }

    void highContrastPalette()
    {
        QFETCH(bool, dark);
        const QPalette p = Theme::highContrastPalette(dark);
        // WCAG AAA asks 7:1 for text; black on white is 21:1.
        QVERIFY(contrast(p.color(QPalette::Text), p.color(QPalette::Base)) >= 20);
        QVERIFY(contrast(p.color(QPalette::WindowText), p.color(QPalette::Window)) >= 20);
        QCOMPARE(Theme::paletteIsDark(p), dark);
    }

    void simulationKnownValues()
    {
        // Grey stays grey; pure red and green lose their difference much more
        // than blue and yellow do (what the filters are for).
        const QColor grey(0x80, 0x80, 0x80);
        for (Vision v : {Vision::Deuteranopia, Vision::Protanopia})
            QVERIFY(ColorVision::deltaE76(ColorVision::simulate(grey, v), grey) < 1.0);
        const QColor red(0xd0, 0x30, 0x30), green(0x30, 0xa0, 0x30);
        const double normal = ColorVision::deltaE76(red, green);
        const double deutan = ColorVision::deltaE76(ColorVision::simulate(red, Vision::Deuteranopia),
                                                    ColorVision::simulate(green, Vision::Deuteranopia));
        QVERIFY2(deutan < normal / 2, qPrintable(QString("%1 vs %2").arg(deutan).arg(normal)));
        // CIELAB of white is L=100, a=b=0.
        const auto white = ColorVision::toLab(Qt::white);
        QVERIFY(std::abs(white[0] - 100) < 0.01 && std::abs(white[1]) < 0.01 && std::abs(white[2]) < 0.01);
        QVERIFY(std::abs(ColorVision::deltaE76(Qt::black, Qt::white) - 100) < 0.01);
    }

    void opPaletteDistinguishable()
    {
        // Every pair of op colours, in normal vision and under simulated
        // deuteranopia and protanopia (docs/gui.md records the table).
        const auto pairs = ColorVision::opPalettePairs();
        QCOMPARE(int(pairs.size()), ovs::kOpKindCount * (ovs::kOpKindCount - 1) / 2);
        for (const auto& pair : pairs) {
            QVERIFY2(pair.smallest() >= ColorVision::kMinimumOpDeltaE,
                     qPrintable(QString("%1 / %2: %3 %4 %5")
                                    .arg(ovs::ui::opKindLabel(pair.a), ovs::ui::opKindLabel(pair.b))
                                    .arg(pair.deltaE[0])
                                    .arg(pair.deltaE[1])
                                    .arg(pair.deltaE[2])));
        }
        const QString report = ColorVision::opPaletteReport();
        QVERIFY(report.contains("minimum over all pairs"));
    }

    void opColoursStandOutOnBothBackgrounds()
    {
        // Ops are drawn on the lane background of either theme: none may
        // melt into it (their outlines help, but the fill must show).
        for (bool dark : {false, true}) {
            const QColor background = Theme::palette(dark).color(QPalette::Base);
            for (int k = 0; k < ovs::kOpKindCount; ++k) {
                const QColor c = ovs::ui::opColor(static_cast<OpKind>(k));
                QVERIFY2(ColorVision::deltaE76(c, background) >= 15,
                         qPrintable(QString("%1 on %2").arg(ovs::ui::opKindLabel(static_cast<OpKind>(k)),
                                                            background.name())));
            }
        }
    }
};

QTEST_MAIN(TestTheme)
#include "tst_theme.moc"
