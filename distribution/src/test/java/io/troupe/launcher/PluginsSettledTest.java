package io.troupe.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How long the launcher waits for the plugins: the host's start timeout plus a margin. */
class PluginsSettledTest {

    @Test
    void waitsForTheStartTimeoutTheHostAppliesPlusAMargin() {
        assertEquals(10 + PluginsSettled.MARGIN_SECONDS, PluginsSettled.timeoutSeconds(null));
        assertEquals(3 + PluginsSettled.MARGIN_SECONDS, PluginsSettled.timeoutSeconds(" 3 "));
        assertEquals(3600 + PluginsSettled.MARGIN_SECONDS, PluginsSettled.timeoutSeconds("3600"));
    }

    @Test
    void aValueTheHostRefusesMeansTheHostsDefault() {
        long byDefault = PluginsSettled.DEFAULT_START_TIMEOUT_SECONDS + PluginsSettled.MARGIN_SECONDS;
        assertEquals(byDefault, PluginsSettled.timeoutSeconds("soon"));
        assertEquals(byDefault, PluginsSettled.timeoutSeconds("0"));
        assertEquals(byDefault, PluginsSettled.timeoutSeconds("3601"));
        assertEquals(byDefault, PluginsSettled.timeoutSeconds(""));
    }
}
