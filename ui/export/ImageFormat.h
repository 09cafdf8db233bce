#pragma once

#include <QString>

#include <optional>

namespace ovs::ui {

// The picture formats exports write; a file's extension picks one, and any
// other extension is refused rather than guessed (so out.svg is never PNG data).
enum class ImageFormat { Png, Svg, Pdf };

// The format `path`'s extension names (case-insensitive), or nullopt with a
// message in `error` saying which extensions work.
std::optional<ImageFormat> imageFormatForPath(const QString& path, QString* error);
QString imageFormatName(ImageFormat format);

} // namespace ovs::ui
