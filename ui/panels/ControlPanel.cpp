#include "panels/ControlPanel.h"

#include "bench/BandwidthBench.h"
#include "pipeline/PipelineConfig.h"
#include "sim/SimPreset.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <algorithm>
#include <initializer_list>

namespace ovs::ui {

namespace {

constexpr int kProgressSteps = 1000;
constexpr int kMaxChunkMiB = static_cast<int>(kMaxChunkBytes >> 20);       // the core's limits: one chunk,
constexpr int kMaxTransferMiB = static_cast<int>(kMaxTransferBytes >> 20); // one transfer of the sweep

QSpinBox* spinBox(const QString& name, int minimum, int maximum, int value, const QString& tip)
{
    auto* box = new QSpinBox;
    box->setObjectName(name);
    box->setRange(minimum, maximum);
    box->setValue(value);
    box->setToolTip(tip);
    box->setAccelerated(true);
    return box;
}

} // namespace

ControlPanel::ControlPanel(QWidget* parent)
    : QWidget(parent), m_device(new QComboBox), m_chunks(nullptr), m_chunkMiB(nullptr), m_slots(nullptr),
      m_stagingThreads(nullptr), m_kernelRepeats(nullptr), m_bench(new QCheckBox(tr("&Bandwidth sweep"))), m_benchSizes(new QLineEdit),
      m_problem(new QLabel), m_run(new QPushButton(tr("R&un"))), m_cancel(new QPushButton(tr("Ca&ncel"))),
      m_progress(new QProgressBar), m_status(new QLabel)
{
    buildDevice();
    QVBoxLayout* pipelineBox = buildPipelines();
    buildSpinBoxes();
    QHBoxLayout* benchRow = buildBench();
    QHBoxLayout* buttons = buildButtonsAndStatus();
    layOut(pipelineBox, benchRow, buttons);
    connectInputs();
    updateProblem();
}

void ControlPanel::buildDevice()
{
    m_device->setObjectName("device");
    m_device->setToolTip(tr("A CUDA GPU, or the simulated device (a model of a GPU behind PCIe; its results are "
                            "always labelled [simulated])"));
    // Until the listing comes back from the worker: the simulated presets,
    // which need nothing from the machine.
    for (const auto& preset : simPresets())
        m_device->addItem(QString::fromStdString(preset.name + " [simulated]"),
                          QString::fromStdString("sim:" + preset.id));
    m_device->setCurrentIndex(m_device->findData(QString::fromStdString("sim:" + defaultSimPreset().id)));
}

QVBoxLayout* ControlPanel::buildPipelines()
{
    // Every strategy the core knows; the seed's two are checked to start
    // with, as the CLI runs by default.
    auto* pipelineBox = new QVBoxLayout;
    for (const auto& kind : pipelineKinds()) {
        auto* box = new QCheckBox(QString::fromUtf8(kind.title));
        box->setObjectName(QStringLiteral("pipeline:%1").arg(QString::fromUtf8(kind.id)));
        box->setProperty("pipelineId", QString::fromUtf8(kind.id));
        box->setToolTip(QString::fromUtf8(kind.description));
        box->setChecked(kind.kind == PipelineKind::Serialized || kind.kind == PipelineKind::Overlapped);
        pipelineBox->addWidget(box);
        m_pipelines.push_back(box);
    }
    return pipelineBox;
}

void ControlPanel::buildSpinBoxes()
{
    const PipelineConfig defaults;
    m_chunks = spinBox("chunks", 1, kMaxChunks, defaults.chunks, tr("How many chunks the data is cut into"));
    m_chunkMiB = spinBox("chunkMiB", 1, kMaxChunkMiB, static_cast<int>(defaults.chunkBytes >> 20),
                         tr("Size of one chunk of f32 data"));
    m_chunkMiB->setSuffix(tr(" MiB"));
    m_slots = spinBox("slots", 1, kMaxSlots, defaults.slotCount,
                      tr("Slots of the overlapped path: a stream, a device buffer and a pinned staging buffer "
                         "each; the streams of registered, data already pinned and pageable async (the "
                         "serialized path and pinned, one stream always use one)"));
    m_stagingThreads = spinBox("stagingThreads", 1, kMaxStagingThreads, defaults.stagingThreads,
                               tr("Host threads that share each staging copy of the overlapped path (one, as "
                                  "in the seed, is usually what bounds it)"));
    m_kernelRepeats = spinBox("kernelRepeats", 1, kMaxKernelRepeats, defaults.kernelRepeats,
                              tr("Increment passes per chunk: more makes the run compute-bound"));
}

QHBoxLayout* ControlPanel::buildBench()
{
    m_bench->setObjectName("bench");
    m_bench->setToolTip(tr("After the pipelines, measure transfer bandwidth per size: pageable and pinned, "
                           "HtoD and DtoH, and pinned in both directions at once"));
    m_benchSizes->setObjectName("benchSizes");
    m_benchSizes->setText(QStringLiteral("1, 4, 16, 64, 256"));
    m_benchSizes->setToolTip(tr("Transfer sizes of the sweep, in MiB, separated by commas"));
    auto* benchRow = new QHBoxLayout;
    benchRow->addWidget(m_bench);
    auto* sizesLabel = new QLabel(tr("s&izes (MiB):"));
    sizesLabel->setBuddy(m_benchSizes);
    benchRow->addWidget(sizesLabel);
    benchRow->addWidget(m_benchSizes, 1);
    return benchRow;
}

QHBoxLayout* ControlPanel::buildButtonsAndStatus()
{
    m_problem->setObjectName("problem");
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_problem->setVisible(false);

    m_run->setObjectName("run");
    m_run->setToolTip(tr("Run the checked pipelines (Enter)"));
    m_cancel->setObjectName("cancel");
    m_cancel->setToolTip(tr("Stop after the current step; what was recorded is kept (Escape)"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);

    m_progress->setObjectName("progress");
    m_progress->setRange(0, kProgressSteps);
    m_progress->setValue(0);
    m_status->setObjectName("status");
    m_status->setWordWrap(true);
    m_status->setText(tr("Ready."));
    return buttons;
}

void ControlPanel::layOut(QVBoxLayout* pipelineBox, QHBoxLayout* benchRow, QHBoxLayout* buttons)
{
    auto* form = new QFormLayout;
    form->addRow(tr("&Device:"), m_device);
    form->addRow(tr("Pipelines:"), pipelineBox);
    form->addRow(tr("C&hunks:"), m_chunks);
    form->addRow(tr("Chunk si&ze:"), m_chunkMiB);
    form->addRow(tr("&Slots:"), m_slots);
    form->addRow(tr("S&taging threads:"), m_stagingThreads);
    form->addRow(tr("&Kernel repeats:"), m_kernelRepeats);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(benchRow);
    layout->addWidget(m_problem);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);
    layout->addStretch(1);
}

void ControlPanel::connectInputs()
{
    connect(m_device, &QComboBox::activated, this, [this] { m_deviceChosenByUser = true; });
    connect(m_device, &QComboBox::currentIndexChanged, this, &ControlPanel::updateProblem);
    for (QCheckBox* box : m_pipelines)
        connect(box, &QCheckBox::toggled, this, &ControlPanel::updateProblem);
    for (QSpinBox* box : {m_chunks, m_chunkMiB, m_slots, m_stagingThreads, m_kernelRepeats})
        connect(box, &QSpinBox::valueChanged, this, &ControlPanel::updateProblem);
    connect(m_bench, &QCheckBox::toggled, this, &ControlPanel::updateProblem);
    connect(m_benchSizes, &QLineEdit::textChanged, this, &ControlPanel::updateProblem);
    connect(m_run, &QPushButton::clicked, this, &ControlPanel::requestRun);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (!m_running || m_cancelling)
            return;
        m_cancelling = true;
        m_status->setText(tr("Cancelling: letting the device drain\u2026"));
        updateEnabled();
        emit cancelRequested();
    });
}

std::vector<std::uint64_t> ControlPanel::parseSizes(const QString& text, QString* error)
{
    std::vector<std::uint64_t> sizes;
    const QStringList items = text.split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    if (items.isEmpty()) {
        *error = tr("give at least one transfer size in MiB");
        return {};
    }
    for (const QString& item : items) {
        bool ok = false;
        const qulonglong mib = item.toULongLong(&ok);
        if (!ok) {
            *error = tr("\u201c%1\u201d is not a whole number of MiB").arg(item);
            return {};
        }
        if (mib < 1 || mib > kMaxTransferMiB) {
            *error = tr("transfer sizes must be between 1 and %1 MiB (got %2)").arg(kMaxTransferMiB).arg(mib);
            return {};
        }
        sizes.push_back(static_cast<std::uint64_t>(mib) << 20);
    }
    error->clear();
    return sizes;
}

RunRequest ControlPanel::request() const
{
    RunRequest request;
    request.deviceSpec = m_device->currentData().toString();
    for (const QCheckBox* box : m_pipelines) {
        if (!box->isChecked())
            continue;
        PipelineConfig config;
        config.kind = pipelineKindFromId(box->property("pipelineId").toString().toStdString()).value_or(config.kind);
        config.chunks = m_chunks->value();
        config.chunkBytes = static_cast<std::uint64_t>(m_chunkMiB->value()) << 20;
        config.slotCount = m_slots->value();
        config.stagingThreads = m_stagingThreads->value();
        config.kernelRepeats = m_kernelRepeats->value();
        request.pipelines.push_back(config);
    }
    request.runBench = m_bench->isChecked();
    QString ignored;
    request.bench.sizes = parseSizes(m_benchSizes->text(), &ignored);
    return request;
}

void ControlPanel::updateProblem()
{
    QString problem;
    if (m_bench->isChecked())
        parseSizes(m_benchSizes->text(), &problem);
    if (problem.isEmpty())
        problem = request().problem();
    else
        problem = tr("Sweep sizes: %1").arg(problem);
    m_problemText = problem;
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    updateEnabled();
}

void ControlPanel::updateEnabled()
{
    m_device->setEnabled(!m_running);
    for (QCheckBox* box : m_pipelines)
        box->setEnabled(!m_running);
    for (QWidget* widget :
         std::initializer_list<QWidget*>{m_chunks, m_chunkMiB, m_slots, m_stagingThreads, m_kernelRepeats, m_bench})
        widget->setEnabled(!m_running);
    m_benchSizes->setEnabled(!m_running && m_bench->isChecked());
    m_run->setEnabled(!m_running && m_problemText.isEmpty());
    m_cancel->setEnabled(m_running && !m_cancelling);
}

void ControlPanel::setDevices(const QList<DeviceListing>& devices)
{
    const QString previous = m_device->currentData().toString();
    const QSignalBlocker blocker(m_device);
    m_device->clear();
    int firstAvailable = -1;
    int firstGpu = -1;
    auto* model = qobject_cast<QStandardItemModel*>(m_device->model());
    for (const DeviceListing& device : devices) {
        QString label = QString::fromStdString(device.label);
        if (!device.available)
            label += tr(" (unavailable)");
        const QString spec = QString::fromStdString(device.spec);
        m_device->addItem(label, spec);
        const int index = m_device->count() - 1;
        m_device->setItemData(index, QString::fromStdString(device.note), Qt::ToolTipRole);
        if (!device.available) {
            // Listed, so the user learns why the GPU is missing, but not choosable.
            if (model)
                model->item(index)->setEnabled(false);
            continue;
        }
        if (firstAvailable < 0)
            firstAvailable = index;
        if (firstGpu < 0 && spec.startsWith(QLatin1String("cuda")))
            firstGpu = index;
    }
    const int kept = m_device->findData(previous);
    const bool keptUsable = kept >= 0 && (!model || model->item(kept)->isEnabled());
    int chosen = keptUsable ? kept : firstAvailable;
    if (!m_deviceChosenByUser && firstGpu >= 0)
        chosen = firstGpu;
    m_device->setCurrentIndex(chosen);
    updateProblem();
}

void ControlPanel::setRunning(bool running)
{
    m_running = running;
    m_cancelling = false;
    m_progress->setRange(0, kProgressSteps);
    if (running) {
        m_progress->setValue(0);
        m_status->setText(tr("Starting\u2026"));
    }
    updateEnabled();
}

void ControlPanel::setProgress(double fraction, const QString& what)
{
    if (fraction < 0) {
        m_progress->setRange(0, 0); // busy, for as long as it takes
    } else {
        m_progress->setRange(0, kProgressSteps);
        m_progress->setValue(static_cast<int>(std::clamp(fraction, 0.0, 1.0) * kProgressSteps));
    }
    if (!m_cancelling)
        m_status->setText(what);
}

void ControlPanel::showFinished(bool ok, const QString& message)
{
    if (ok)
        m_progress->setValue(kProgressSteps);
    m_status->setText(message);
}

void ControlPanel::requestRun()
{
    if (m_running || !m_problemText.isEmpty())
        return;
    emit runRequested(request());
}

void ControlPanel::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
        requestRun();
        event->accept();
        return;
    case Qt::Key_Escape:
        if (m_running) {
            m_cancel->click();
            event->accept();
            return;
        }
        break;
    default: break;
    }
    QWidget::keyPressEvent(event);
}

} // namespace ovs::ui
