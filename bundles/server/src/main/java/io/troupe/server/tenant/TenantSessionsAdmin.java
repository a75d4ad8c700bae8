package io.troupe.server.tenant;

import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import io.troupe.api.admin.TenantSessions;

/**
 * The server's {@link TenantSessions} service: an operator's disconnect of a tenant tells each of its open
 * sessions to say BYE {@value TenantSessions#DISCONNECTED} and close ({@link TenantSession#disconnect}); the
 * tenant stays configured, so its clients may connect again at once.
 *
 * <p><b>Threading:</b> any thread; the sessions close on their own IO loops, so no call blocks.
 */
public final class TenantSessionsAdmin implements TenantSessions {

    private final TenantDirectory directory;

    public TenantSessionsAdmin(TenantDirectory directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    @Override
    public Set<String> tenants() {
        Set<String> ids = new TreeSet<>();
        for (Tenant tenant : directory.tenants()) {
            ids.add(tenant.id());
        }
        return Collections.unmodifiableSet(ids);
    }

    @Override
    public int disconnect(String tenant) {
        Tenant found = directory.find(tenant).orElseThrow(() -> new IllegalArgumentException(
                "no tenant '" + tenant + "' is configured"));
        List<TenantSession> open = found.sessions();
        for (TenantSession session : open) {
            session.disconnect(found, DISCONNECTED);
        }
        return open.size();
    }
}
