#include "window/ProfileDialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace ovs::ui {
ProfileDialog::ProfileDialog(QWidget* parent)
    : QDialog(parent), m_program(new QLineEdit), m_arguments(new QLineEdit), m_workingDirectory(new QLineEdit),
      m_environment(new QPlainTextEdit), m_problem(new QLabel),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel))
{
    setWindowTitle(tr("Profile program"));
    m_program->setObjectName("program");
    m_arguments->setObjectName("arguments");
    m_workingDirectory->setObjectName("workingDirectory");
    m_environment->setObjectName("environment");
    m_program->setPlaceholderText(tr("a path, or a command found in PATH (python3, ./app)"));
    m_arguments->setPlaceholderText(tr("as in a terminal: --size 64 \"a b\" 'c d'"));
    m_workingDirectory->setPlaceholderText(tr("this window's folder"));
    m_environment->setPlaceholderText(tr("NAME=VALUE, one a line\nCUDA_VISIBLE_DEVICES=0"));
    m_environment->setTabChangesFocus(true);
    m_environment->setFixedHeight(m_environment->fontMetrics().lineSpacing() * 5 + 12);

    auto* browseProgram = new QPushButton(tr("Browse…"));
    connect(browseProgram, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Program to profile"), m_workingDirectory->text());
        if (!path.isEmpty())
            m_program->setText(path);
    });
    auto* browseFolder = new QPushButton(tr("Browse…"));
    connect(browseFolder, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getExistingDirectory(this, tr("Working folder"), m_workingDirectory->text());
        if (!path.isEmpty())
            m_workingDirectory->setText(path);
    });

    // A grid rather than a form: labels then line up with fields that have
    // a button beside them.
    auto* form = new QGridLayout;
    const auto addRow = [form](int row, const QString& label, QWidget* field, QWidget* button = nullptr) {
        auto* name = new QLabel(label);
        name->setBuddy(field);
        form->addWidget(name, row, 0, Qt::AlignLeft | (button ? Qt::AlignVCenter : Qt::AlignTop));
        form->addWidget(field, row, 1, 1, button ? 1 : 2);
        if (button)
            form->addWidget(button, row, 2);
    };
    addRow(0, tr("&Program:"), m_program, browseProgram);
    addRow(1, tr("&Arguments:"), m_arguments);
    addRow(2, tr("&Working folder:"), m_workingDirectory, browseFolder);
    addRow(3, tr("&Environment:"), m_environment);
    form->setColumnStretch(1, 1);

    auto* note = new QLabel(tr("The program runs with OverlapScope's injection library, which the CUDA driver "
                               "loads into every process that initializes CUDA; no rebuild needed. Its runs fill "
                               "the timeline while it runs; Cancel stops it and keeps what was recorded."));
    note->setWordWrap(true);
    m_problem->setObjectName("problem");
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #c0392b;"));
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Profile"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, [this] {
        if (problemText().isEmpty())
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(m_problem);
    layout->addWidget(m_buttons);

    for (QLineEdit* edit : {m_program, m_arguments, m_workingDirectory})
        connect(edit, &QLineEdit::textChanged, this, &ProfileDialog::updateProblem);
    connect(m_environment, &QPlainTextEdit::textChanged, this, &ProfileDialog::updateProblem);
    resize(640, sizeHint().height());
    updateProblem();
}

ProfileRequest ProfileDialog::request() const
{
    ProfileRequest r;
    r.program = m_program->text();
    r.arguments = m_arguments->text();
    r.workingDirectory = m_workingDirectory->text();
    r.environment = m_environment->toPlainText();
    return r;
}

void ProfileDialog::setRequest(const ProfileRequest& request)
{
    m_program->setText(request.program);
    m_arguments->setText(request.arguments);
    m_workingDirectory->setText(request.workingDirectory);
    m_environment->setPlainText(request.environment);
    updateProblem();
}

QString ProfileDialog::problemText() const
{
    return m_problem->text();
}

void ProfileDialog::updateProblem()
{
    const QString problem = request().problem();
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(problem.isEmpty());
}

ProfileRequest ProfileDialog::remembered()
{
    QSettings settings;
    ProfileRequest r;
    r.program = settings.value("profile/program").toString();
    r.arguments = settings.value("profile/arguments").toString();
    r.workingDirectory = settings.value("profile/workingDirectory").toString();
    r.environment = settings.value("profile/environment").toString();
    return r;
}

void ProfileDialog::remember(const ProfileRequest& request)
{
    QSettings settings;
    settings.setValue("profile/program", request.program);
    settings.setValue("profile/arguments", request.arguments);
    settings.setValue("profile/workingDirectory", request.workingDirectory);
    settings.setValue("profile/environment", request.environment);
}

} // namespace ovs::ui
