package org.nvimpam.model;

/**
 * The measure (area, volume, length) and centroid of one element from its corner coordinates, in
 * the deck's units. Every form is exact for straight edges:
 *
 * <ul>
 *   <li>a triangle: half the cross product of two edges; its centroid the mean of the corners;
 *   <li>a quadrilateral: the area of the bilinear surface through its four corners, the integral
 *       of |x_u × x_v| over the unit square. For a planar quad the integrand is linear in u and v,
 *       so 2×2 Gauss points give area and centroid exactly (either diagonal split gives that area
 *       too). For a warped quad the integrand is the root of a quadratic: 2×2 and 4×4 Gauss points,
 *       and where they differ by more than 1e-13, 4×4 points on squares split in four until two
 *       rules agree to 1e-13. A folded quad (a bowtie: its normal turns over inside, no element a
 *       mesher makes) gets the 4×4 points only: the kink of |x_u × x_v| defeats any rule. Not the shorter-diagonal split: for a warped
 *       quad its two splits give two areas, both chords of the surface the element interpolates,
 *       and which is shorter depends on the node numbering's rounding when the diagonals are equal;
 *   <li>a hexahedron (and its degenerate forms: a pentahedron, a pyramid, a tetrahedron as a
 *       hexahedron with repeated nodes): the integral of the trilinear map's Jacobian determinant,
 *       a polynomial of degree 2 in each variable (3 with the coordinate, for the centroid), so
 *       2×2×2 Gauss points are exact;
 *   <li>a tetrahedron: a sixth of the triple product, its centroid the mean of the corners;
 *   <li>a line: its length, its centroid the midpoint.
 * </ul>
 *
 * Each method writes the measure to {@code out[0]} and the centroid to {@code out[1..3]}; a
 * reversed node order gives the same positive measure.
 */
final class MassShapes {
  private MassShapes() {}

  private static final double G = 1 / Math.sqrt(3); // 2-point Gauss abscissa on [-1, 1]
  private static final double[] G4X = {-0.8611363115940526, -0.3399810435848563, 0.3399810435848563, 0.8611363115940526};
  private static final double[] G4W = {0.3478548451374538, 0.6521451548625461, 0.6521451548625461, 0.3478548451374538};
  private static final double SPLIT_TOL = 1e-13;
  private static final int MAX_SPLIT_DEPTH = 3;

  static void line(double[] x, int a, int b, double[] out) {
    double dx = x[3 * b] - x[3 * a];
    double dy = x[3 * b + 1] - x[3 * a + 1];
    double dz = x[3 * b + 2] - x[3 * a + 2];
    out[0] = Math.sqrt(dx * dx + dy * dy + dz * dz);
    for (int k = 0; k < 3; k++) out[1 + k] = 0.5 * (x[3 * a + k] + x[3 * b + k]);
  }

  static void triangle(double[] x, int a, int b, int c, double[] out) {
    double ux = x[3 * b] - x[3 * a], uy = x[3 * b + 1] - x[3 * a + 1], uz = x[3 * b + 2] - x[3 * a + 2];
    double vx = x[3 * c] - x[3 * a], vy = x[3 * c + 1] - x[3 * a + 1], vz = x[3 * c + 2] - x[3 * a + 2];
    double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    out[0] = 0.5 * Math.sqrt(nx * nx + ny * ny + nz * nz);
    for (int k = 0; k < 3; k++) out[1 + k] = (x[3 * a + k] + x[3 * b + k] + x[3 * c + k]) / 3;
  }

  /** Corners {@code a b c d} in order around the quad. */
  static void quad(double[] x, int a, int b, int c, int d, double[] out) {
    // x(u, v) = p + e u + f v + g u v on [0, 1]^2
    double[] p = new double[3], e = new double[3], f = new double[3], g = new double[3];
    for (int k = 0; k < 3; k++) {
      double xa = x[3 * a + k], xb = x[3 * b + k], xc = x[3 * c + k], xd = x[3 * d + k];
      p[k] = xa;
      e[k] = xb - xa;
      f[k] = xd - xa;
      g[k] = xa - xb + xc - xd;
    }
    // n(u, v) = x_u × x_v = e×f + u (e×g) + v (g×f): planar when the three are parallel
    double[] n0 = cross(e, f), n1 = cross(e, g), n2 = cross(g, f);
    double[] acc = new double[4];
    if (parallel(n0, n1) && parallel(n0, n2)) {
      gauss2(p, e, f, g, 0, 0, 1, acc);
    } else {
      // a slightly warped quad (a real mesh's) ends here: 2x2 and 4x4 points agree
      gauss4(p, e, f, g, 0, 0, 1, acc);
      if (!folded(n0, n1, n2)) {
        double[] low = new double[4];
        gauss2(p, e, f, g, 0, 0, 1, low);
        if (Math.abs(acc[0] - low[0]) > SPLIT_TOL * acc[0]) {
          double tol = SPLIT_TOL * acc[0];
          java.util.Arrays.fill(acc, 0);
          adaptive(p, e, f, g, 0, 0, 1, 0, tol, acc);
        }
      }
    }
    out[0] = acc[0];
    for (int k = 0; k < 3; k++) out[1 + k] = acc[0] == 0 ? p[k] : acc[1 + k] / acc[0];
  }

  /**
   * Whether the normal {@code n0 + u n1 + v n2} turns over somewhere in the square: the quad is
   * folded (a bowtie), and |n| has a kink no Gauss rule resolves. n is linear, so its component
   * along the centre's normal is least at a corner.
   */
  private static boolean folded(double[] n0, double[] n1, double[] n2) {
    double[] c = {n0[0] + (n1[0] + n2[0]) / 2, n0[1] + (n1[1] + n2[1]) / 2, n0[2] + (n1[2] + n2[2]) / 2};
    for (int k = 0; k < 4; k++) {
      double u = k & 1, v = k >> 1;
      double d = 0;
      for (int i = 0; i < 3; i++) d += (n0[i] + u * n1[i] + v * n2[i]) * c[i];
      if (d <= 0) return true;
    }
    return false;
  }

  private static boolean parallel(double[] a, double[] b) {
    double[] c = cross(a, b);
    double la = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
    double lb = b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
    double lc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
    return lc <= 1e-28 * la * lb;
  }

  /** Adds area and first moments over the square {@code [u0, u0 + h] × [v0, v0 + h]} with 2×2 points. */
  private static void gauss2(double[] p, double[] e, double[] f, double[] g, double u0, double v0, double h, double[] acc) {
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 2; j++) {
        double u = u0 + h * (1 + (i == 0 ? -G : G)) / 2;
        double v = v0 + h * (1 + (j == 0 ? -G : G)) / 2;
        point(p, e, f, g, u, v, h * h / 4, acc);
      }
    }
  }

  private static void gauss4(double[] p, double[] e, double[] f, double[] g, double u0, double v0, double h, double[] acc) {
    // point()'s sums, in its order, on locals: the hot loop of a warped or folded quad
    double px = p[0], py = p[1], pz = p[2], ex = e[0], ey = e[1], ez = e[2];
    double fx = f[0], fy = f[1], fz = f[2], gx = g[0], gy = g[1], gz = g[2];
    double a0 = acc[0], a1 = acc[1], a2 = acc[2], a3 = acc[3];
    for (int i = 0; i < 4; i++) {
      double u = u0 + h * (1 + G4X[i]) / 2;
      double xvx = fx + gx * u, xvy = fy + gy * u, xvz = fz + gz * u;
      for (int j = 0; j < 4; j++) {
        double v = v0 + h * (1 + G4X[j]) / 2;
        double w = h * h / 4 * G4W[i] * G4W[j];
        double xux = ex + gx * v, xuy = ey + gy * v, xuz = ez + gz * v;
        double nx = xuy * xvz - xuz * xvy, ny = xuz * xvx - xux * xvz, nz = xux * xvy - xuy * xvx;
        double jw = w * Math.sqrt(nx * nx + ny * ny + nz * nz);
        a0 += jw;
        a1 += jw * (px + ex * u + fx * v + gx * u * v);
        a2 += jw * (py + ey * u + fy * v + gy * u * v);
        a3 += jw * (pz + ez * u + fz * v + gz * u * v);
      }
    }
    acc[0] = a0;
    acc[1] = a1;
    acc[2] = a2;
    acc[3] = a3;
  }

  private static void point(double[] p, double[] e, double[] f, double[] g, double u, double v, double w, double[] acc) {
    double xux = e[0] + g[0] * v, xuy = e[1] + g[1] * v, xuz = e[2] + g[2] * v;
    double xvx = f[0] + g[0] * u, xvy = f[1] + g[1] * u, xvz = f[2] + g[2] * u;
    double nx = xuy * xvz - xuz * xvy, ny = xuz * xvx - xux * xvz, nz = xux * xvy - xuy * xvx;
    double j = w * Math.sqrt(nx * nx + ny * ny + nz * nz);
    acc[0] += j;
    for (int k = 0; k < 3; k++) acc[1 + k] += j * (p[k] + e[k] * u + f[k] * v + g[k] * u * v);
  }

  /**
   * Area and moments over a square: 4x4 points on it and on its four quarters, split further until
   * the two agree within the square's share ({@code h^2}) of {@code tol}, to a bounded depth.
   */
  private static void adaptive(double[] p, double[] e, double[] f, double[] g, double u0, double v0, double h, int depth,
      double tol, double[] acc) {
    double[] coarse = new double[4];
    gauss4(p, e, f, g, u0, v0, h, coarse);
    double[] fine = new double[4];
    double s = h / 2;
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 2; j++) gauss4(p, e, f, g, u0 + i * s, v0 + j * s, s, fine);
    }
    if (depth >= MAX_SPLIT_DEPTH || Math.abs(fine[0] - coarse[0]) <= tol * h * h) {
      for (int k = 0; k < 4; k++) acc[k] += fine[k];
      return;
    }
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 2; j++) adaptive(p, e, f, g, u0 + i * s, v0 + j * s, s, depth + 1, tol, acc);
    }
  }

  static void tetra(double[] x, int a, int b, int c, int d, double[] out) {
    double[] u = diff(x, b, a), v = diff(x, c, a), w = diff(x, d, a);
    double[] n = cross(u, v);
    out[0] = Math.abs(n[0] * w[0] + n[1] * w[1] + n[2] * w[2]) / 6;
    for (int k = 0; k < 3; k++) out[1 + k] = (x[3 * a + k] + x[3 * b + k] + x[3 * c + k] + x[3 * d + k]) / 4;
  }

  /**
   * The hexahedron of corners {@code n[0..7]} (indices into {@code x}): 1-2-3-4 one face, 5-6-7-8
   * the opposite one, 5 above 1. A pentahedron is {@code 1 2 3 3 4 5 6 6}, a pyramid
   * {@code 1 2 3 4 5 5 5 5}.
   */
  static void hexa(double[] x, int[] n, double[] out) {
    double vol = 0;
    double mx = 0, my = 0, mz = 0;
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 2; j++) {
        for (int l = 0; l < 2; l++) {
          double j0 = 0, j1 = 0, j2 = 0, j3 = 0, j4 = 0, j5 = 0, j6 = 0, j7 = 0, j8 = 0; // the Jacobian, by rows
          double px = 0, py = 0, pz = 0;
          int q = 8 * (4 * i + 2 * j + l);
          for (int c = 0; c < 8; c++) {
            double nr = HNR[q + c], ns = HNS[q + c], nt = HNT[q + c], nn = HNN[q + c];
            double xc = x[3 * n[c]], yc = x[3 * n[c] + 1], zc = x[3 * n[c] + 2];
            j0 += nr * xc; j1 += nr * yc; j2 += nr * zc;
            j3 += ns * xc; j4 += ns * yc; j5 += ns * zc;
            j6 += nt * xc; j7 += nt * yc; j8 += nt * zc;
            px += nn * xc; py += nn * yc; pz += nn * zc;
          }
          double det = j0 * (j4 * j8 - j5 * j7) - j1 * (j3 * j8 - j5 * j6) + j2 * (j3 * j7 - j4 * j6);
          vol += det;
          mx += det * px;
          my += det * py;
          mz += det * pz;
        }
      }
    }
    out[0] = Math.abs(vol);
    if (vol == 0) {
      for (int k = 0; k < 3; k++) {
        double m = 0;
        for (int c = 0; c < 8; c++) m += x[3 * n[c] + k];
        out[1 + k] = m / 8;
      }
    } else {
      out[1] = mx / vol;
      out[2] = my / vol;
      out[3] = mz / vol;
    }
  }

  // the corners of the reference cube [-1, 1]^3, in PAM-CRASH's node order
  private static final double[] HR = {-1, 1, 1, -1, -1, 1, 1, -1};
  private static final double[] HS = {-1, -1, 1, 1, -1, -1, 1, 1};
  private static final double[] HT = {-1, -1, -1, -1, 1, 1, 1, 1};
  // The shape functions' derivatives (r, s, t) and values at the 2x2x2 Gauss points: point
  // 4 i + 2 j + l (r, s, t = -G or G for 0 or 1), corner c at 8 point + c.
  private static final double[] HNR = new double[64], HNS = new double[64], HNT = new double[64], HNN = new double[64];

  static {
    for (int i = 0; i < 2; i++) {
      for (int j = 0; j < 2; j++) {
        for (int l = 0; l < 2; l++) {
          double r = i == 0 ? -G : G, s = j == 0 ? -G : G, t = l == 0 ? -G : G;
          for (int c = 0; c < 8; c++) {
            double rc = HR[c], sc = HS[c], tc = HT[c];
            int q = 8 * (4 * i + 2 * j + l) + c;
            HNR[q] = rc * (1 + s * sc) * (1 + t * tc) / 8;
            HNS[q] = sc * (1 + r * rc) * (1 + t * tc) / 8;
            HNT[q] = tc * (1 + r * rc) * (1 + s * sc) / 8;
            HNN[q] = (1 + r * rc) * (1 + s * sc) * (1 + t * tc) / 8;
          }
        }
      }
    }
  }

  private static double[] diff(double[] x, int a, int b) {
    return new double[] {x[3 * a] - x[3 * b], x[3 * a + 1] - x[3 * b + 1], x[3 * a + 2] - x[3 * b + 2]};
  }

  private static double[] cross(double[] a, double[] b) {
    return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
  }
}
