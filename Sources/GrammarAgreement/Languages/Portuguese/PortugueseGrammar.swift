/// Portuguese agreement: ``RomanceGrammar``'s walk over ``PortugueseLanguage``'s rules, as a concrete
/// type so the walk is compiled for them (see ``RomanceAgreement``).
struct PortugueseGrammar: RomanceAgreement {
    let walk: RomanceGrammar<PortugueseLanguage>

    init(lexicon: Lexicon) {
        walk = RomanceGrammar(PortugueseLanguage(lexicon: lexicon))
    }
}
