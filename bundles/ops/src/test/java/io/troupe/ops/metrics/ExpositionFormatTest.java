package io.troupe.ops.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link ExpositionFormat}: OpenMetrics for the clients that ask for it (Prometheus's scrapes do), the text
 * format 0.0.4 for everyone else.
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class ExpositionFormatTest {

    /** The header Prometheus 2.x sends when it scrapes. */
    private static final String PROMETHEUS_SCRAPE = "application/openmetrics-text;version=1.0.0,"
            + "application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

    @Test
    void prometheusScrapesGetOpenMetrics() {
        assertEquals(ExpositionFormat.OPENMETRICS, ExpositionFormat.forAccept(PROMETHEUS_SCRAPE));
        assertEquals(ExpositionFormat.OPENMETRICS, ExpositionFormat.forAccept("Application/OpenMetrics-Text"));
        assertTrue(ExpositionFormat.OPENMETRICS.contentType().startsWith("application/openmetrics-text; version=1.0.0"),
                ExpositionFormat.OPENMETRICS.contentType());
    }

    @Test
    void curlAndEveryOtherClientGetTheTextFormat() {
        assertEquals(ExpositionFormat.TEXT, ExpositionFormat.forAccept(null));
        assertEquals(ExpositionFormat.TEXT, ExpositionFormat.forAccept("*/*"));
        assertEquals(ExpositionFormat.TEXT, ExpositionFormat.forAccept("text/plain;version=0.0.4"));
        assertEquals(ExpositionFormat.TEXT, ExpositionFormat.forAccept("application/vnd.google.protobuf;"
                + "proto=io.prometheus.client.MetricFamily;encoding=delimited"), "no protobuf, and no refusal");
        assertEquals(ExpositionFormat.TEXT, ExpositionFormat.forAccept("application/openmetrics-text;q=0, */*"),
                "q=0 refuses the type");
        assertEquals("text/plain; version=0.0.4; charset=utf-8", ExpositionFormat.TEXT.contentType());
    }
}
