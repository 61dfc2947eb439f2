# Sourced by the scripts that render a report in headless Chromium: sets BROWSER, installing
# Debian's chromium first when the machine has none. $1 names the caller in what it says.
SUDO=$([ "$(id -u)" = "0" ] || echo sudo)
BROWSER=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$BROWSER" ]; then
    echo "$1: installing chromium (apt-get)"
    $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium
    BROWSER=$(command -v chromium)
fi
