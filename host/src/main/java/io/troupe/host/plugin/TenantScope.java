package io.troupe.host.plugin;

import java.util.Set;
import java.util.TreeSet;

import org.osgi.framework.Bundle;

/**
 * The tenants a plugin serves, from its manifest header {@value #HEADER}: a comma-separated list of
 * tenant ids ({@code Troupe-Tenants: acme, globex}). Without the header (or with an empty one) the
 * plugin serves every tenant. For any other tenant the plugin's handlers and named factories do not
 * exist: a request gets {@code no.handler}, a spawn by name {@code no.factory}, exactly as if the
 * plugin were not deployed. Tenant-less callers (the runtime's own actors, in-process users) see
 * every plugin.
 *
 * <p><b>Threading:</b> immutable.
 */
final class TenantScope {

    /** The manifest header that limits a plugin to some tenants. */
    static final String HEADER = "Troupe-Tenants";

    private static final TenantScope EVERY_TENANT = new TenantScope(Set.of());

    private final Set<String> tenants;

    private TenantScope(Set<String> tenants) {
        this.tenants = tenants;
    }

    /** The scope declared by {@code bundle}'s manifest; every tenant for {@code null}. */
    static TenantScope of(Bundle bundle) {
        if (bundle == null) {
            return EVERY_TENANT;
        }
        String header;
        try {
            header = bundle.getHeaders("").get(HEADER);
        } catch (IllegalStateException e) {
            return EVERY_TENANT; // uninstalled meanwhile: it serves no one for long anyway
        }
        return parse(header);
    }

    /** The scope a header value declares; blank entries are ignored. */
    static TenantScope parse(String header) {
        if (header == null || header.isBlank()) {
            return EVERY_TENANT;
        }
        Set<String> ids = new TreeSet<>();
        for (String part : header.split(",")) {
            String id = part.trim();
            if (!id.isEmpty()) {
                ids.add(id);
            }
        }
        return ids.isEmpty() ? EVERY_TENANT : new TenantScope(Set.copyOf(ids));
    }

    /** Whether {@code tenant} may use the plugin; always for the empty (no) tenant. */
    boolean serves(String tenant) {
        return tenants.isEmpty() || tenant == null || tenant.isEmpty() || tenants.contains(tenant);
    }

    /** Whether the plugin is limited to some tenants. */
    boolean isLimited() {
        return !tenants.isEmpty();
    }

    @Override
    public String toString() {
        return tenants.isEmpty() ? "every tenant" : "tenants " + new TreeSet<>(tenants);
    }
}
