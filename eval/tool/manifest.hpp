#pragma once
// manifest.json: what a cellshift-eval command wrote into its --out folder (the
// command, the value of every option, the role of each file), so that a reader
// such as `cellshift-eval report` takes a folder as an explicit input and never
// guesses from a folder layout or a log. Format: docs/formats.md.

#include <CLI/CLI.hpp>

#include <string>
#include <utility>
#include <vector>

namespace cellshift::eval::tool {

// role -> paths, relative to the folder when they lie in it, absolute otherwise.
using ManifestFiles = std::vector<std::pair<std::string, std::vector<std::string>>>;

// Writes DIR/manifest.json atomically for the parsed subcommand `command`.
void write_manifest(const std::string& dir, const CLI::App& command, const ManifestFiles& files);

// The manifest's text (for tests and for write_manifest).
std::string manifest_json(const CLI::App& command, const ManifestFiles& files);

} // namespace cellshift::eval::tool
