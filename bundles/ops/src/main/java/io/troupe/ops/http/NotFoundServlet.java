package io.troupe.ops.http;

import java.io.IOException;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The servlet of {@code /} (the default mapping) in the {@value TroupeContext#NAME} context: it answers
 * {@code 404} with a JSON body for every path no other servlet serves. Being there, it makes every path of
 * the endpoint go through {@link TroupeContext#handleSecurity}, so that an unknown path is refused without
 * the token (401) exactly like a known one, and tells nothing about which paths exist.
 *
 * <p><b>Threading:</b> the container's threads; stateless.
 */
final class NotFoundServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        JsonResponse.error(response, HttpServletResponse.SC_NOT_FOUND, "not_found",
                "nothing at " + TroupeContext.pathOf(request));
    }
}
