#pragma once

#include "workers/ProfileRequest.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace ovs::ui {

// File > Profile program…: the program (with Browse), its arguments (split
// like a shell: quotes), its working folder and extra environment variables
// (NAME=VALUE lines). What was last profiled is remembered (QSettings) and
// offered again. Profile is enabled only while the request has no problem,
// and the problem is shown under the fields.
class ProfileDialog : public QDialog {
    Q_OBJECT

public:
    explicit ProfileDialog(QWidget* parent = nullptr);

    ProfileRequest request() const;
    void setRequest(const ProfileRequest& request);
    // The problem shown (empty when the request can start).
    QString problemText() const;

    // The last request accepted, from QSettings (empty fields the first time).
    static ProfileRequest remembered();
    static void remember(const ProfileRequest& request);

private:
    void updateProblem();

    QLineEdit* m_program;
    QLineEdit* m_arguments;
    QLineEdit* m_workingDirectory;
    QPlainTextEdit* m_environment;
    QLabel* m_problem;
    QDialogButtonBox* m_buttons;
};

} // namespace ovs::ui
