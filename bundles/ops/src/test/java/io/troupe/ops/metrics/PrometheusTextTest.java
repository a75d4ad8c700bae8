package io.troupe.ops.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

import io.troupe.testsupport.PrometheusText;
import io.troupe.testsupport.PrometheusText.Format;
import io.troupe.testsupport.PrometheusText.Scrape;

/**
 * The strict parser the metrics tests read scrapes with ({@link PrometheusText}) accepts well-formed scrapes and
 * refuses, naming the line, what a scrape must not contain: the tests that rely on it can fail.
 *
 * <p><b>Threading:</b> JUnit's thread only.
 */
class PrometheusTextTest {

    private static final String TEXT = """
            # HELP requests_total Requests, with a \\\\ and a \\n
            # TYPE requests_total counter
            requests_total{tenant="a\\"b",node="x"} 3.0
            requests_total{tenant="c"} 1e3
            # TYPE latency_seconds histogram
            latency_seconds_bucket{le="0.1"} 1
            latency_seconds_bucket{le="+Inf"} 3
            latency_seconds_count 3
            latency_seconds_sum 0.5
            """;

    @Test
    void aWellFormedScrapeIsReadWithItsTypesLabelsAndValues() {
        Scrape scrape = PrometheusText.parse(TEXT, Format.TEXT);
        assertEquals("counter", scrape.family("requests_total").type());
        assertEquals("Requests, with a \\ and a \n", scrape.family("requests_total").help());
        assertEquals(3.0, scrape.value("requests_total", "tenant", "a\"b", "node", "x"));
        assertEquals(1000.0, scrape.value("requests_total", "tenant", "c"));
        assertEquals(3, scrape.value("latency_seconds_count"));
        assertEquals(4, scrape.family("latency_seconds").samples().size());

        Scrape open = PrometheusText.parse("""
                # TYPE requests counter
                # HELP requests Requests
                requests_total 2.0
                # TYPE queue_bytes gauge
                # UNIT queue_bytes bytes
                queue_bytes 4096.0
                # EOF
                """, Format.OPENMETRICS);
        assertEquals(2.0, open.value("requests_total"));
        assertEquals("bytes", open.family("queue_bytes").unit());
    }

    @Test
    void whatAScrapeMustNotContainIsRefusedWithTheLine() {
        refused("no family", "x 1\n", Format.TEXT);
        refused("is not a number", "# TYPE x gauge\nx one\n", Format.TEXT);
        refused("twice", "# TYPE x gauge\nx{a=\"1\"} 1\nx{a=\"1\"} 2\n", Format.TEXT);
        refused("split apart", "# TYPE x gauge\nx{a=\"1\"} 1\n# TYPE y gauge\ny 1\nx{a=\"2\"} 1\n", Format.TEXT);
        refused("below zero", "# TYPE x_total counter\nx_total -1\n", Format.TEXT);
        refused("malformed", "# TYPE x gauge\nx{1a=\"1\"} 1\n", Format.TEXT);
        refused("not quoted", "# TYPE x gauge\nx{a=1} 1\n", Format.TEXT);
        refused("escape", "# TYPE x gauge\nx{a=\"\\t\"} 1\n", Format.TEXT);
        refused("not cumulative", "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\n"
                + "h_count 1\nh_sum 1\n", Format.TEXT);
        refused("no +Inf", "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_count 2\nh_sum 1\n", Format.TEXT);
        refused("_count", "# TYPE h histogram\nh_bucket{le=\"+Inf\"} 2\nh_count 3\nh_sum 1\n", Format.TEXT);
        refused("line feed", "# TYPE x gauge\nx 1", Format.TEXT);
        refused("# EOF", "# TYPE x gauge\nx 1\n", Format.OPENMETRICS);
        refused("after # EOF", "# TYPE x gauge\nx 1\n# EOF\nx 2\n", Format.OPENMETRICS);
        refused("blank line", "# TYPE x gauge\n\nx 1\n# EOF\n", Format.OPENMETRICS);
        refused("no family", "# TYPE x_total counter\nx_total 1\n# EOF\n", Format.OPENMETRICS);
    }

    private static void refused(String reason, String body, Format format) {
        IllegalArgumentException refusal = assertThrows(IllegalArgumentException.class,
                () -> PrometheusText.parse(body, format), () -> "accepted: " + body);
        assertTrue(refusal.getMessage().contains(reason), refusal.getMessage());
    }
}
