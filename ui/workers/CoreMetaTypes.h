#pragma once

#include "devicefactory/DeviceFactory.h"
#include "trace/BandwidthSweep.h"
#include "trace/Op.h"
#include "trace/Run.h"
#include "trace/Trace.h"

#include <QList>
#include <QMetaType>

#include <memory>
#include <string>
#include <vector>

// Core types that travel through queued signals from the workers to the GUI
// thread (RunController, TraceLoader): Qt copies each argument into the event.
Q_DECLARE_METATYPE(ovs::Run)
Q_DECLARE_METATYPE(ovs::Lane)
Q_DECLARE_METATYPE(std::vector<ovs::Op>)
Q_DECLARE_METATYPE(std::vector<std::string>)
Q_DECLARE_METATYPE(ovs::BandwidthSweep)
Q_DECLARE_METATYPE(ovs::BandwidthPoint)
Q_DECLARE_METATYPE(ovs::DeviceListing)
Q_DECLARE_METATYPE(std::shared_ptr<ovs::Trace>)
