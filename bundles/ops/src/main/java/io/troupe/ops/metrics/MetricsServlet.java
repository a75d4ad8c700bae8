package io.troupe.ops.metrics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.osgi.service.servlet.whiteboard.HttpWhiteboardConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.troupe.api.cluster.ClusterView;
import io.troupe.api.monitor.RuntimeStats;
import io.troupe.api.monitor.ServerStats;
import io.troupe.api.state.StateStore;
import io.troupe.ops.http.TroupeContext;
import jakarta.servlet.Servlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * {@code GET /metrics} in the {@value TroupeContext#NAME} context (so behind the admin token): the
 * {@link TroupeCollector}'s snapshots in the format the {@code Accept} header asks for ({@link ExpositionFormat}).
 * The runtime's services are optional and dynamic: a part that is not running has no metrics, and a scrape never
 * waits for one.
 *
 * <pre>
 * curl -H "Authorization: Bearer $(cat etc/admin.token)" http://127.0.0.1:7879/metrics
 * </pre>
 *
 * <p>The answer is written to memory first and sent with its length, so a scrape that fails half way gets a
 * {@code 500} rather than a truncated page that parses.
 *
 * <p><b>Threading:</b> requests on the servlet container's threads, concurrently; SCR sets the references from
 * its own threads (volatile fields, read once per scrape).
 */
@Component(service = Servlet.class, property = {
    HttpWhiteboardConstants.HTTP_WHITEBOARD_SERVLET_NAME + "=troupe-metrics",
    HttpWhiteboardConstants.HTTP_WHITEBOARD_SERVLET_PATTERN + "=/metrics",
    HttpWhiteboardConstants.HTTP_WHITEBOARD_CONTEXT_SELECT + "=" + TroupeContext.SELECT})
public final class MetricsServlet extends HttpServlet implements MetricSources {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(MetricsServlet.class);

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private transient volatile RuntimeStats runtime;
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private transient volatile ServerStats server;
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private transient volatile StateStore store;
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private transient volatile ClusterView cluster;

    private final transient TroupeCollector collector = new TroupeCollector(this);

    /** Used by Declarative Services. */
    public MetricsServlet() {
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ExpositionFormat format = ExpositionFormat.forAccept(request.getHeader("Accept"));
        ByteArrayOutputStream body = new ByteArrayOutputStream(16 * 1024);
        try {
            MetricSnapshots snapshots = collector.collect();
            format.writer().write(body, snapshots);
        } catch (RuntimeException e) {
            LOG.warn("A scrape of /metrics failed", e);
            response.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR, "the metrics could not be collected: "
                    + e);
            return;
        }
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(format.contentType());
        response.setHeader("Cache-Control", "no-store");
        response.setContentLength(body.size());
        body.writeTo(response.getOutputStream());
    }

    @Override
    public RuntimeStats runtime() {
        return runtime;
    }

    @Override
    public ServerStats server() {
        return server;
    }

    @Override
    public StateStore store() {
        return store;
    }

    @Override
    public ClusterView cluster() {
        return cluster;
    }
}
