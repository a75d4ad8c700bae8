/**
 * How many connections the server's listener admits ({@code maxConnections},
 * {@code maxConnectionsPerAddress}, {@code maxUnauthenticatedConnections},
 * {@code reservedFileDescriptors}): {@link io.troupe.server.admission.AdmissionPolicy} derives the
 * defaults from the process's {@link io.troupe.server.admission.FileDescriptorLimit}; the host's
 * acceptor enforces the resulting {@link io.troupe.api.net.AdmissionLimits}.
 */
package io.troupe.server.admission;
