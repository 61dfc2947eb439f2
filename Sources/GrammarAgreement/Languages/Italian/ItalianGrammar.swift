/// Italian agreement: ``RomanceGrammar``'s walk over ``ItalianLanguage``'s rules, as a concrete type so
/// the walk is compiled for them (see ``RomanceAgreement``).
struct ItalianGrammar: RomanceAgreement {
    let walk: RomanceGrammar<ItalianLanguage>

    init(lexicon: Lexicon) {
        walk = RomanceGrammar(ItalianLanguage(lexicon: lexicon))
    }
}
