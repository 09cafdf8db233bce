#include "timeline/CompareHeader.h"

#include "style/DisplayText.h"
#include "style/TimeFormat.h"

#include <QFileInfo>
#include <QObject>
#include <QStringList>

#include <set>

namespace ovs::ui {

namespace {

constexpr int kNameChars = 60;
const QString kArrow = QStringLiteral("\u2192");

QString ms(std::int64_t ns)
{
    return QString::number(static_cast<double>(ns) / 1e6, 'f', 1);
}

QString change(std::int64_t before, std::int64_t after)
{
    return QStringLiteral("%1 %2 %3 ms").arg(ms(before), kArrow, ms(after));
}

// One device's busy times, before and after ("H2D 52.6 → 50.1 ms, ...");
// kinds idle on both sides are left out.
QString engines(const DeviceActivity& b, const DeviceActivity& a)
{
    QStringList parts;
    for (const auto& [what, field] :
         {std::pair<const char*, std::int64_t DeviceActivity::*>{"H2D", &DeviceActivity::h2dNs},
          {"D2H", &DeviceActivity::d2hNs},
          {"device copies", &DeviceActivity::deviceCopyNs},
          {"kernels", &DeviceActivity::computeNs},
          {"memsets", &DeviceActivity::memsetNs}})
        if (b.*field > 0 || a.*field > 0)
            parts << QStringLiteral("%1 %2").arg(QString::fromLatin1(what), change(b.*field, a.*field));
    parts << QObject::tr("GPU idle %1").arg(change(b.idleNs, a.idleNs));
    return parts.join(QStringLiteral(", "));
}

QString findingText(const FindingDiff& f)
{
    const auto words = [](const FindingSide& s) { return QString::fromStdString(s.words); };
    switch (f.change) {
    case FindingChange::Resolved: return QObject::tr("%1 (%2 ms)").arg(words(*f.before), ms(f.before->costNs));
    case FindingChange::New: return QObject::tr("%1 (%2 ms)").arg(words(*f.after), ms(f.after->costNs));
    case FindingChange::Changed: break;
    }
    QString name = words(*f.before);
    if (f.before->id != f.after->id)
        name += QObject::tr(" (now %1)").arg(words(*f.after));
    return QStringLiteral("%1 %2").arg(name, change(f.before->costNs, f.after->costNs));
}

QString pairText(const RunPairDiff& p)
{
    QString text = QStringLiteral("%1 %2 %3: %4 (%5); wall %6\n")
                       .arg(displayText(p.before.name, kNameChars), kArrow, displayText(p.after.name, kNameChars),
                            QString::fromStdString(savedSentence(p)), change(p.before.activeNs, p.after.activeNs),
                            change(p.before.wallNs, p.after.wallNs));
    text += QObject::tr("    copies with kernels %1 (%2% %3 %4% of possible)")
                .arg(change(p.before.overlapNs, p.after.overlapNs))
                .arg(p.before.overlapOfPossiblePercent, 0, 'f', 0)
                .arg(kArrow)
                .arg(p.after.overlapOfPossiblePercent, 0, 'f', 0);
    std::set<int> devices;
    for (const RunSide* s : {&p.before, &p.after})
        for (const DeviceActivity& d : s->devices)
            devices.insert(d.device);
    const auto find = [](const RunSide& s, int device) {
        for (const DeviceActivity& d : s.devices)
            if (d.device == device)
                return d;
        return DeviceActivity{};
    };
    for (int device : devices) {
        const DeviceActivity b = find(p.before, device);
        const DeviceActivity a = find(p.after, device);
        const QString label = devices.size() > 1 ? displayText(b.label.empty() ? a.label : b.label) + QLatin1String(": ")
                                                 : QString();
        text += QStringLiteral("; %1%2").arg(label, engines(b, a));
    }
    text += QLatin1Char('\n');
    QStringList resolved, changed, added;
    for (const FindingDiff& f : p.findings)
        (f.change == FindingChange::Resolved ? resolved : f.change == FindingChange::New ? added : changed)
            << findingText(f);
    QStringList findings;
    if (!resolved.isEmpty())
        findings << QObject::tr("resolved: %1").arg(resolved.join(QStringLiteral(", ")));
    if (!changed.isEmpty())
        findings << QObject::tr("changed: %1").arg(changed.join(QStringLiteral(", ")));
    if (!added.isEmpty())
        findings << QObject::tr("new: %1").arg(added.join(QStringLiteral(", ")));
    text += QStringLiteral("    %1\n").arg(findings.isEmpty() ? QObject::tr("no findings either side")
                                                               : findings.join(QStringLiteral("; ")));
    return text;
}

} // namespace

QString compareHeaderText(const Comparison& comparison)
{
    QString text = QObject::tr("Before: %1    After: %2    (runs aligned where their judged spans start)\n")
                       .arg(QFileInfo(comparison.beforePath).fileName(), QFileInfo(comparison.afterPath).fileName());
    for (const RunPairDiff& p : comparison.diff.pairs)
        text += pairText(p);
    for (const std::string& name : comparison.diff.onlyBefore)
        text += QObject::tr("Only in before (not shown): %1\n").arg(displayText(name, kNameChars));
    for (const std::string& name : comparison.diff.onlyAfter)
        text += QObject::tr("Only in after (not shown): %1\n").arg(displayText(name, kNameChars));
    return text;
}

} // namespace ovs::ui
