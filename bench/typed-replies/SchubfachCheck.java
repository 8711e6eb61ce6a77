import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;
import java.util.*;
public class SchubfachCheck { public static void main(String[] a){
 SplittableRandom r=new SplittableRandom(42); int bad=0, diff17=0; int N=Integer.parseInt(a[0]);
 double[] edge={0.1,1e21,-0.0,5e-324,2e23,1e23,2.0e-3,1.0E-5,Double.MAX_VALUE,Double.MIN_NORMAL,4.9e-324,1e7,9999999.999,0.001,123456789012345678.0,1e15,1e16,-1.5e300};
 for(double d:edge) System.out.println(d+" jackson="+DoubleToDecimal.toString(d));
 for(int i=0;i<N;i++){ double d = i%2==0? Double.longBitsToDouble(r.nextLong()) : r.nextDouble()*Math.pow(10, r.nextInt(-30,30));
   if(Double.isNaN(d)) continue; String j=DoubleToDecimal.toString(d), s=Double.toString(d);
   if(!j.equals(s)) { bad++; if(bad<5) System.out.println("DIFF "+s+" "+j);} }
 System.out.println("N="+N+" differ="+bad+" runtime="+Runtime.version());
}}
