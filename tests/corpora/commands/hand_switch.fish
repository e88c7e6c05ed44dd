switch (uname)
case Linux
    set pkg apt-get
case Darwin
    set pkg brew
case '*'
    echo "unsupported system"; exit 1
end
while not ping -c 1 -W 1 github.com > /dev/null
    echo waiting for network; sleep 5
end
sudo $pkg install -y ripgrep fd-find
