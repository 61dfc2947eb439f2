#!/usr/bin/env bash
# Rewrites the compiled lexicons (Sources/GrammarAgreement/Lexicons/*.dictionary.tsv, de.modifiers.txt,
# es.plurals.txt, fr.aspirated.txt)
# from their sources: Debian's Hunspell dictionaries and Apertium's Italian analyser, and the
# Python packages in requirements.txt (SGJP through morfeusz2 for Polish, OpenCorpora through
# pymorphy3 for Russian). Installs what is missing first. Takes a few minutes.
set -euo pipefail
cd "$(dirname "$0")"
root=../..
out=$root/Sources/GrammarAgreement/Lexicons
sudo=$([ "$(id -u)" = 0 ] || echo sudo)
packages="hunspell hunspell-tools hunspell-fr-comprehensive hunspell-de-de hunspell-it hunspell-pt-br hunspell-pt-pt \
hunspell-es lttoolbox apertium-cat-ita aspell aspell-fr python3-venv"
missing=""
for package in $packages; do dpkg -s "$package" >/dev/null 2>&1 || missing="$missing $package"; done
if [ -n "$missing" ]; then
    echo "lexicons: installing$missing (apt-get)"
    $sudo apt-get update -qq && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
fi
venv=$root/.build/lexicons-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r requirements.txt
python="$venv/bin/python"
echo "lexicons: fr" && "$python" compile_fr.py > "$out/fr.dictionary.tsv"
"$python" compile_fr_aspirated.py > "$out/fr.aspirated.txt"
echo "lexicons: de" && "$python" compile_de.py > "$out/de.dictionary.tsv"
"$python" compile_de_modifiers.py > "$out/de.modifiers.txt"
echo "lexicons: it" && "$python" compile_it.py > "$out/it.dictionary.tsv"
echo "lexicons: pt" && "$python" compile_pt.py > "$out/pt.dictionary.tsv"
echo "lexicons: es" && "$python" compile_es.py > "$out/es.plurals.txt"
echo "lexicons: pl" && "$python" compile_pl.py > "$out/pl.dictionary.tsv"
echo "lexicons: ru" && "$python" compile_ru.py > "$out/ru.dictionary.tsv"
wc -l "$out"/*.dictionary.tsv "$out/es.plurals.txt"
