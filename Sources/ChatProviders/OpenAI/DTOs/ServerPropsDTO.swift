import ChatJSON

/// What chat uses of llama.cpp's `GET /props`: the context one request may use
/// (`default_generation_settings.n_ctx`, per slot).
struct ServerPropsDTO: JSONObjectDTO {
    struct GenerationSettingsDTO: JSONObjectDTO {
        var n_ctx: Int?

        mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
            switch key {
            case "n_ctx": try reader.read(&n_ctx)
            default: try reader.skipValue()
            }
        }
    }

    var default_generation_settings: GenerationSettingsDTO?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "default_generation_settings": try reader.read(&default_generation_settings)
        default: try reader.skipValue()
        }
    }
}
