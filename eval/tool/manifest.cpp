#include "manifest.hpp"

#include "cellshift/data/atomic_file.hpp"

#include <cstdio>
#include <filesystem>

namespace cellshift::eval::tool {

namespace {

std::string json_string(const std::string& text) {
    std::string out = "\"";
    for (const char c : text) {
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\t':
            out += "\\t";
            break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char code[8];
                std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned>(c));
                out += code;
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

std::string json_list(const std::vector<std::string>& items) {
    std::string out = "[";
    for (std::size_t k = 0; k < items.size(); ++k)
        out += (k ? ", " : "") + json_string(items[k]);
    return out + "]";
}

} // namespace

std::string manifest_json(const CLI::App& command, const ManifestFiles& files) {
    std::string out = "{\n  \"format\": \"cellshift.manifest\",\n  \"format_version\": 1,\n"
                      "  \"tool\": \"cellshift-eval\",\n  \"command\": " +
                      json_string(command.get_name()) + ",\n  \"options\": {";
    bool first = true;
    for (const CLI::Option* opt : command.get_options()) {
        const std::string name = opt->get_single_name();
        if (name == "help" || name.empty())
            continue;
        // What the command ran with: the values given, else the default.
        std::vector<std::string> values = opt->results();
        if (opt->count() == 0)
            values = opt->get_default_str().empty()
                         ? std::vector<std::string>{}
                         : std::vector<std::string>{opt->get_default_str()};
        out += std::string(first ? "\n" : ",\n") + "    " + json_string(name) + ": " +
               json_list(values);
        first = false;
    }
    out += "\n  },\n  \"files\": {";
    first = true;
    for (const auto& [role, paths] : files) {
        out += std::string(first ? "\n" : ",\n") + "    " + json_string(role) + ": " +
               json_list(paths);
        first = false;
    }
    return out + "\n  }\n}\n";
}

void write_manifest(const std::string& dir, const CLI::App& command, const ManifestFiles& files) {
    data::write_text_atomically((std::filesystem::path(dir) / "manifest.json").string(),
                                manifest_json(command, files));
}

} // namespace cellshift::eval::tool
