/// Polish: numerals 2–4 agree with the noun (*2 duże pizze*), except masculine-personal nouns
/// (*2 gości*); 5 and above, and 21, 31…, take the genitive plural in the nominative and accusative.
extension SlavicRules {
    static let polish = SlavicRules(
        language: "pl",
        paucal: .agreeing,
        prepositionCases: {
            var table = WordTable<Case>()
            for word in [
                "bez", "dla", "do", "od", "u", "zamiast", "oprócz", "obok", "wśród", "według", "podczas", "około",
                "spod", "sprzed", "dookoła", "wokół", "koło", "prócz", "naprzeciwko",
            ] {
                table[word] = .genitive
            }
            for word in ["z", "ze", "nad", "pod", "przed", "między", "pomiędzy"] { table[word] = .instrumental }
            for word in ["za", "przez", "na", "ponad"] { table[word] = .accusative }
            for word in ["dzięki", "ku", "wbrew"] { table[word] = .dative }
            for word in ["przy"] { table[word] = .locative }
            return table
        }(),
        accusativeVerbs: [
            "dodaj", "dodajcie", "dodać", "dodajemy", "dodaliśmy", "dodano", "dodałeś", "dodałaś", "dodał", "dodała",
            "dodałem", "dodałam", "dodaliście", "zamów", "zamówcie", "zamówić", "zamawiasz", "zamawiam", "zamawiamy",
            "zamówiono", "zamówiłeś", "zamówiłaś", "zamówił", "zamówiła", "zamówiłem", "zamówiłam", "zamówiliście",
            "zamówiliśmy", "zamówisz", "wybierz", "wybierzcie", "wybrać", "wybrałeś", "wybrałaś", "wybrał", "wybrała",
            "wybrano", "wybierasz", "weź", "weźcie", "weźmy", "wziąć", "wziąłeś", "wzięłaś", "kup", "kupcie", "kupić",
            "kupiłeś", "kupiłaś", "kupujesz", "poproszę", "prosimy", "mamy", "masz", "macie", "ma", "mam", "otrzymasz",
            "otrzymujesz", "otrzymałeś", "otrzymałaś", "otrzymuje", "otrzymano", "dostaniesz", "dostajesz",
            "dostałeś", "dostałaś", "odbierz", "odbierzcie", "odebrać", "odebrano", "usuń", "usunąć", "usunięto",
            "usunąłeś", "usunęłaś", "przygotowujemy", "przygotowaliśmy", "przygotujemy", "przygotowano", "podajemy",
            "podaliśmy", "podano", "serwujemy", "polecamy", "zapłać",
            "zapłaciłeś", "zapłaciłaś", "opłać", "opłacono", "dostarczymy", "dostarczamy", "dostarczyliśmy",
            "wysłaliśmy", "wysłano", "przyjęliśmy", "przyjęto", "potwierdzamy", "potwierdzono", "zobacz", "sprawdź",
            "zamień", "zmień", "dodajesz", "dorzuć", "dorzucamy", "zarezerwuj",
            "zarezerwowano", "anuluj", "anulowano", "zwróć", "zwrócono", "odbierasz", "odbierzesz", "wydano",
            "wydajemy", "pakujemy", "zapakowano", "dostałem", "dostałam", "zjedz", "wypij", "weźmiesz", "kupisz",
            "zaproś", "zaproście", "zaprosić", "zapraszamy", "zaprosiłeś", "zaprosiłaś", "odebrałeś", "odebrałaś",
            "odebrał", "odebrała", "odebrałem", "odebrałam", "wziąłeś", "wzięłaś", "wybrałem", "wybrałam", "zamówił",
            "kupiłem", "kupiłam", "zapłaciłem", "zapłaciłam", "dodałem", "dodałam",
        ],
        instrumentalVerbs: [
            "delektuj", "delektujcie", "poczęstuj", "poczęstujcie", "częstujemy", "raczymy", "uraczymy", "zachwyć",
            "rozkoszuj",
        ],
        genitiveWords: [
            "brak", "brakuje", "zabrakło", "szukasz", "szukamy", "potrzebujesz", "życzymy", "ile", "pełno",
            "spróbuj", "spróbujcie", "skosztuj", "skosztujcie",
        ],
        negation: "nie",
        nominativeWords: [
            "to", "jest", "są", "było", "była", "był", "będzie", "będą", "zostało", "zostały", "został", "została",
        ],
        transparentWords: [
            "już", "jeszcze", "teraz", "dziś", "dzisiaj", "sobie", "nam", "ci", "mi", "wam", "tylko", "też", "także",
            "również", "dodatkowo", "aż", "właśnie", "tu", "tutaj", "razem", "łącznie", "proszę", "więc",
            "a", "i", "ponownie", "znowu", "jutro", "wkrótce", "zaraz",
        ],
        accusativeAfter: [
            "dodano", "zamówiono", "wybrano", "usunięto", "podano", "przygotowano", "wysłano", "przyjęto",
            "anulowano", "zwrócono", "opłacono", "odebrano", "wydano", "zapakowano",
        ],
        conjunctions: ["i", "oraz", "lub", "albo", "czy", "&"],
        pronouns: ["on", "ona", "ono", "oni"],
        personEndings: [("eś", "ś"), ("em", "m")],
        longPrepositions: ["z": "ze"],
        clusterInitials: ["s", "z", "ś", "ź", "ż"],
        longFormBeginnings: ["wsz", "mn"],
        vowels: ["a", "ą", "e", "ę", "i", "o", "ó", "u", "y"],
        digraphs: ["sz"]
    )
}
