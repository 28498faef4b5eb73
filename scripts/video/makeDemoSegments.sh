#!/bin/sh
# Makes the built-in demo media source's segments (media/demo/<look>/seg<N>.ts): one look per
# standard camera position, a 10-second loop of five 2-second MPEG-TS segments, H.264 baseline 320x180 at 10
# fps (a keyframe opening every segment), no sound. Needs ffmpeg with libx264 and drawtext, and the DejaVu
# font (Debian: apt-get install -y ffmpeg fonts-dejavu-core). Run once; the output is committed: nothing
# needs ffmpeg at run time or in CI.
set -eu
OUT="$(dirname "$0")/../../media/demo"
FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
SEGMENTS=5
make_look() { # look-number title testsrc2-hue
  dir="$OUT/$1"
  rm -rf "$dir" && mkdir -p "$dir"
  ffmpeg -hide_banner -loglevel error -f lavfi -i "testsrc2=size=320x180:rate=10:duration=$((SEGMENTS * 2))" \
    -vf "hue=h=$3,drawbox=x=0:y=ih-28:w=iw:h=28:color=black@0.6:t=fill,drawtext=fontfile=$FONT:text='Камера $1 · $2 · ДЕМО':fontcolor=white:fontsize=15:x=8:y=h-22" \
    -c:v libx264 -profile:v baseline -level 3.0 -pix_fmt yuv420p -preset veryfast -b:v 120k -maxrate 160k -bufsize 320k \
    -g 20 -keyint_min 20 -sc_threshold 0 -an \
    -f hls -hls_time 2 -hls_list_size 0 -hls_segment_type mpegts -hls_segment_filename "$dir/seg%d.ts" "$dir/loop.m3u8"
  rm "$dir/loop.m3u8"
}
make_look 1 'Передняя' 0
make_look 2 'Салон' 90
make_look 3 'Задняя' 180
make_look 4 'Водитель' 270
du -sh "$OUT"
