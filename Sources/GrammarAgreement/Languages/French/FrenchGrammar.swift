/// French agreement: ``RomanceGrammar``'s walk over ``FrenchLanguage``'s rules, as a concrete type so
/// the walk is compiled for them (see ``RomanceAgreement``).
struct FrenchGrammar: RomanceAgreement {
    let walk: RomanceGrammar<FrenchLanguage>

    init(lexicon: Lexicon) {
        walk = RomanceGrammar(FrenchLanguage(lexicon: lexicon))
    }
}
