import ChatDomain

extension ModelListDTO {
    /// The models, in the server's order; entries without an id are left out.
    func toDomain() -> [ModelInfo] {
        (data ?? []).compactMap { model in model.id.map { ModelInfo(id: $0, ownedBy: model.owned_by) } }
    }
}
