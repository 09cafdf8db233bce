#include "document/LessonSession.h"

#include <algorithm>

namespace ovs::ui {

LessonSession::LessonSession(QObject* parent) : QObject(parent) {}

bool LessonSession::open(const Lesson* lesson)
{
    if (!lesson || m_stage == LessonStage::Running)
        return false;
    m_lesson = lesson;
    m_choice.clear();
    m_skipped = false;
    m_result.reset();
    m_focusSteps.clear();
    emit choiceChanged();
    setStage(LessonStage::Intro);
    return true;
}

bool LessonSession::choose(const std::string& choiceId)
{
    if (!m_lesson || predictionLocked())
        return false;
    const auto& choices = m_lesson->question.choices;
    if (std::none_of(choices.begin(), choices.end(), [&](const LessonChoice& c) { return c.id == choiceId; }))
        return false;
    m_choice = choiceId;
    m_skipped = false;
    emit choiceChanged();
    return true;
}

bool LessonSession::skipPrediction()
{
    if (!m_lesson || predictionLocked())
        return false;
    m_choice.clear();
    m_skipped = true;
    emit choiceChanged();
    return true;
}

bool LessonSession::canRun() const
{
    return m_lesson && m_stage != LessonStage::None && m_stage != LessonStage::Running &&
           (!m_choice.empty() || m_skipped);
}

bool LessonSession::requestRun()
{
    if (!canRun())
        return false;
    emit runRequested();
    return true;
}

bool LessonSession::beginRun()
{
    if (!canRun())
        return false;
    m_result.reset();
    m_focusSteps.clear();
    setStage(LessonStage::Running);
    return true;
}

void LessonSession::finishRun(std::shared_ptr<const LessonResult> result)
{
    if (m_stage != LessonStage::Running)
        return;
    m_result = std::move(result);
    m_focusSteps.clear();
    // A cancelled or failed lesson has no verdict, and its focus may point
    // at runs that never happened: straight to Results, which says why.
    if (m_result && m_result->judged) {
        for (std::size_t i = 0; i < m_result->focus.size(); ++i)
            if (m_result->focus[i].runIndex >= 0 && !m_result->focus[i].ops.empty())
                m_focusSteps.push_back(static_cast<int>(i));
    }
    afterRun();
}

bool LessonSession::afterRun()
{
    if (m_focusSteps.empty())
        setStage(LessonStage::Results);
    else
        setStage(LessonStage::Focus, 0);
    return true;
}

int LessonSession::currentFocus() const
{
    if (m_stage != LessonStage::Focus || m_focusStep < 0 || m_focusStep >= static_cast<int>(m_focusSteps.size()))
        return -1;
    return m_focusSteps[static_cast<std::size_t>(m_focusStep)];
}

bool LessonSession::next()
{
    switch (m_stage) {
    case LessonStage::None:
    case LessonStage::Running:
    case LessonStage::Results:
        return false;
    case LessonStage::Intro:
        setStage(LessonStage::Predict);
        return true;
    case LessonStage::Predict:
        if (m_result)
            return afterRun();
        requestRun();
        return false;
    case LessonStage::Focus:
        if (m_focusStep + 1 < static_cast<int>(m_focusSteps.size()))
            setStage(LessonStage::Focus, m_focusStep + 1);
        else
            setStage(LessonStage::Results);
        return true;
    }
    return false;
}

bool LessonSession::previous()
{
    switch (m_stage) {
    case LessonStage::None:
    case LessonStage::Running:
    case LessonStage::Intro:
        return false;
    case LessonStage::Predict:
        setStage(LessonStage::Intro);
        return true;
    case LessonStage::Focus:
        if (m_focusStep > 0)
            setStage(LessonStage::Focus, m_focusStep - 1);
        else
            setStage(LessonStage::Predict);
        return true;
    case LessonStage::Results:
        if (m_focusSteps.empty())
            setStage(LessonStage::Predict);
        else
            setStage(LessonStage::Focus, static_cast<int>(m_focusSteps.size()) - 1);
        return true;
    }
    return false;
}

bool LessonSession::showFocus(int step)
{
    if (!m_result || m_stage == LessonStage::Running || step < 0 || step >= static_cast<int>(m_focusSteps.size()))
        return false;
    setStage(LessonStage::Focus, step);
    return true;
}

int LessonSession::stepCount() const
{
    if (!m_lesson)
        return 0;
    // Before the run, every focus the lesson names may be shown.
    const std::size_t focus = m_result ? m_focusSteps.size() : m_lesson->focus.size();
    return 4 + static_cast<int>(focus);
}

int LessonSession::stepNumber() const
{
    switch (m_stage) {
    case LessonStage::None:
        return 0;
    case LessonStage::Intro:
        return 1;
    case LessonStage::Predict:
        return 2;
    case LessonStage::Running:
        return 3;
    case LessonStage::Focus:
        return 4 + m_focusStep;
    case LessonStage::Results:
        return stepCount();
    }
    return 0;
}

QString LessonSession::choiceText(const std::string& id) const
{
    if (m_lesson) {
        for (const auto& c : m_lesson->question.choices)
            if (c.id == id)
                return QString::fromStdString(c.id + ") " + c.text);
    }
    return QString::fromStdString(id);
}

bool LessonSession::predictedRight() const
{
    return m_result && m_result->judged && !m_choice.empty() && m_choice == m_result->verdict.answer;
}

QString LessonSession::verdictLine() const
{
    if (!m_result || !m_result->judged)
        return QString();
    const QString answer = choiceText(m_result->verdict.answer);
    if (m_choice.empty())
        return tr("You skipped the prediction; the answer is %1.").arg(answer);
    if (predictedRight())
        return tr("You predicted %1: right, that is the answer.").arg(answer);
    return tr("You predicted %1; the answer is %2.").arg(choiceText(m_choice), answer);
}

void LessonSession::setStage(LessonStage stage, int focusStep)
{
    m_stage = stage;
    m_focusStep = stage == LessonStage::Focus ? focusStep : 0;
    emit stageChanged();
}

} // namespace ovs::ui
