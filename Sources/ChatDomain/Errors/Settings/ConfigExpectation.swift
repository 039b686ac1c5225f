/// What a config key holds, as a type mismatch names it.
public enum ConfigExpectation: Sendable, Equatable {
    case objectAtTop, object, objectOfProfiles, objectOfRoles, string, trueOrFalse, number, wholeNumber
    case objectOfStrings, listOfStrings, objectOfServers, objectOfPrices
}
