package io.troupe.ops.metrics;

import java.util.Locale;

import io.prometheus.metrics.expositionformats.ExpositionFormatWriter;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;

/**
 * The format of a scrape's answer, by its {@code Accept} header: OpenMetrics 1.0
 * ({@code application/openmetrics-text; version=1.0.0}) when the header names {@value #OPENMETRICS_TYPE} (with
 * no {@code q=0}), as Prometheus's own scrapes do; otherwise the Prometheus text format 0.0.4
 * ({@code text/plain; version=0.0.4}), which every scraper and a person with curl read. Nothing else is offered
 * (no protobuf), so no request is refused for its header.
 *
 * <p><b>Threading:</b> immutable; the writers are stateless and shared by concurrent scrapes.
 */
enum ExpositionFormat {

    /** OpenMetrics 1.0 text, ended by {@code # EOF}. */
    OPENMETRICS(OpenMetricsTextFormatWriter.create()),
    /** The Prometheus text format 0.0.4. */
    TEXT(PrometheusTextFormatWriter.create());

    /** The media type that selects OpenMetrics. */
    static final String OPENMETRICS_TYPE = "application/openmetrics-text";

    private final ExpositionFormatWriter writer;

    ExpositionFormat(ExpositionFormatWriter writer) {
        this.writer = writer;
    }

    /** The format for a request with this {@code Accept} header (null when it has none). */
    static ExpositionFormat forAccept(String accept) {
        if (accept == null) {
            return TEXT;
        }
        for (String range : accept.split(",")) {
            String type = range.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
            if (type.equals(OPENMETRICS_TYPE) && !refused(range)) {
                return OPENMETRICS;
            }
        }
        return TEXT;
    }

    ExpositionFormatWriter writer() {
        return writer;
    }

    /** The {@code Content-Type} of an answer in this format. */
    String contentType() {
        return writer.getContentType();
    }

    /** Whether the media range says {@code q=0}: the client refuses that type. */
    private static boolean refused(String range) {
        for (String parameter : range.split(";")) {
            String[] pair = parameter.trim().split("=", 2);
            if (pair.length == 2 && pair[0].trim().equalsIgnoreCase("q")) {
                try {
                    return Double.parseDouble(pair[1].trim()) == 0;
                } catch (NumberFormatException e) {
                    return false;
                }
            }
        }
        return false;
    }
}
