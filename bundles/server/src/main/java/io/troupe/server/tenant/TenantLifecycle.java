package io.troupe.server.tenant;

/**
 * What else must follow a tenant's configuration: the server pushes a tenant's policy to the runtime
 * when it is added or changed, and stops its actors when it is removed.
 *
 * <p><b>Threading:</b> called by {@link TenantDirectory} on the thread that changes it (ConfigAdmin's
 * event thread, or activation), one change at a time, under the directory's monitor: implementations
 * must be quick and must not call back into the directory.
 */
public interface TenantLifecycle {

    /** Does nothing. */
    TenantLifecycle NONE = new TenantLifecycle() {
        @Override
        public void configured(Tenant tenant) {
        }

        @Override
        public void removed(Tenant tenant) {
        }
    };

    /** {@code tenant} was added, or its configuration changed ({@link Tenant#config()} is the new one). */
    void configured(Tenant tenant);

    /** {@code tenant} was removed; its sessions have been asked to close. */
    void removed(Tenant tenant);
}
