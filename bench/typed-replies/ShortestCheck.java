import io.respsql.result.ShortestDouble;
import java.util.SplittableRandom;
public class ShortestCheck { public static void main(String[] a){
 SplittableRandom r=new SplittableRandom(Long.parseLong(a[1])); byte[] b=new byte[32]; long hit=0,bad=0,n=Long.parseLong(a[0]);
 for(long i=0;i<n;i++){ double v; int c=(int)(i%3);
  if(c==0) v=Math.pow(10, r.nextDouble(-3.2,7.2)); else if(c==1) v=r.nextLong(-1_000_000_000_000L,1_000_000_000_000L)/Math.pow(10,r.nextInt(1,16)); else v=Math.nextUp(Math.scalb(1.0,r.nextInt(-10,24)))*(1+r.nextInt(3)*1e-16);
  int k=ShortestDouble.plain(v,b); if(k>0){hit++; String s=new String(b,0,k); String t=Double.toString(v); if(!s.equals(t)){bad++; if(bad<10) System.out.println(s+" vs "+t);}}}
 System.out.println("n="+n+" fastpath="+hit+" mismatches_vs_"+Runtime.version()+"="+bad);
}}
