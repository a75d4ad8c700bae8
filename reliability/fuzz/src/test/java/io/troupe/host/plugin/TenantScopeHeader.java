package io.troupe.host.plugin;

/**
 * The fuzz targets' view of how the host reads the {@value TenantScope#HEADER} manifest header
 * ({@link TenantScope} is package-private): whether a tenant is served, and the scope's description.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class TenantScopeHeader {

    /** The manifest header's name. */
    public static final String NAME = TenantScope.HEADER;

    private TenantScopeHeader() {
    }

    /** Reads {@code header} as the host does and asks whether it serves {@code tenant}. */
    public static boolean serves(String header, String tenant) {
        return TenantScope.parse(header).serves(tenant);
    }

    /** Reads {@code header} as the host does and describes the scope, as the host logs it. */
    public static String describe(String header) {
        return TenantScope.parse(header).toString();
    }
}
