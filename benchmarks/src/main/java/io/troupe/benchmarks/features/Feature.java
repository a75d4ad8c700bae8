package io.troupe.benchmarks.features;

import java.util.ArrayList;
import java.util.List;

/**
 * A feature of round two whose cost on the request path the feature-cost suite measures, against the
 * plain server of the same run. TLS and durable state have suites of their own ({@code tls},
 * {@code durable}), which compare against the same server without them.
 *
 * <p><b>Threading:</b> immutable.
 */
enum Feature {

    /** One tenant loaded, nothing scraped: the figure every other one is compared with. */
    PLAIN("plain", "plain (one tenant)"),
    /**
     * The same connections split between two tenants loaded at once: their run queue lanes served by
     * weighted worker time, the reserve worker and the per-tenant cap of turns in force.
     */
    TWO_TENANTS("two-tenants", "two tenants loaded"),
    /** One tenant, while {@code GET /metrics} is scraped over and over (far more often than Prometheus would). */
    METRICS("metrics", "/metrics scraped");

    private final String option;
    private final String label;

    Feature(String option, String label) {
        this.option = option;
        this.label = label;
    }

    String label() {
        return label;
    }

    /**
     * {@code plain,two-tenants,metrics}; the plain run is always included, first.
     *
     * @throws IllegalArgumentException naming an unknown feature
     */
    static List<Feature> parseList(String text) {
        List<Feature> features = new ArrayList<>(List.of(PLAIN));
        for (String item : text.split(",")) {
            String name = item.trim();
            Feature found = null;
            for (Feature feature : values()) {
                if (feature.option.equals(name)) {
                    found = feature;
                }
            }
            if (found == null) {
                throw new IllegalArgumentException("unknown feature '" + name + "'; known: plain, two-tenants, metrics");
            }
            if (!features.contains(found)) {
                features.add(found);
            }
        }
        return features;
    }
}
