import Foundation
import Persistance
import PersistanceDAO

/// The seed's modules, as test fixtures.
enum DAOFixtures {
    /// The seed's first example (`index` is quoted: it is an SQL keyword).
    static let demo = """
        <module name="Demo" initializer="createTable" tableName="demoTable" version="1.0">
        <update id="createTable">
        create table if not exists ${T} ("index" integer primary key, content text)
        </update>
        <insert id="insertItem" arguments="content">
        insert into ${T} (content) values(#{content})
        </insert>
        <select id="getItem" arguments="index" result="string">
        select content from ${T} where "index" = #{index}
        </select>
        </module>
        """

    /// The seed's messages module: map, foreach, if, steps, crypt.
    static let messages = """
        <module name="messages" initializer="createTable" tableName="messages" version="1.0">
        <const table_columns="(msgId, content, uin, read)"/>
        <map id="messageModelMap" result="MessageModel">
          <result property="msgId" column="id"/>
        </map>
        <crypt class="MessageModel" property="content"/>
        <update id="createTable">
          <step>
          create table if not exists ${T} (id integer primary key, content blob, uin integer, read boolean)
          </step>
          <step>
          create index if not exists uin_idx on ${T} (uin)
          </step>
        </update>
        <insert id="addMessages" arguments="messages, onlyRead" foreach="messages.model">
          <if true="model.read or (not onlyRead)">
          insert or replace into ${T} (id, content, uin, read) values(#{model.msgId}, #{model.content}, #{model.uin}, #{model.read})
          </if>
        </insert>
        <insert id="insertMessage" arguments="model">
          insert into ${T} (id, content, uin, read) values(#{model.msgId}, #{model.content}, #{model.uin}, #{model.read})
        </insert>
        <select id="find" arguments="id, time" result=":messageModelMap">
          select * from ${T} where id = #{id} and uin > @{time}
        </select>
        <select id="byIds" arguments="idList" result="[:messageModelMap]">
          select * from ${T} where id in
          <foreach item="id" collection="idList" open="(" separator="," close=")">#{id}</foreach>
          order by id
        </select>
        <select id="counts" arguments="uins" foreach="uins.uin" result="int">
          select count(*) from ${T} where uin = #{uin}
        </select>
        <delete id="remove" arguments="$msgId">
          delete from ${T} where id = #{msgId}
        </delete>
        </module>
        """

    /// The seed's book search: where, if, choose.
    static let books = """
        <module name="books" tableName="book">
        <sql id="bookColumns">id, title</sql>
        <select id="search" arguments="state, title, author" result="[{}]">
          select ${bookColumns} from ${T}
          <where onVoid="ignoreAfter">
            <if true="state != nil">
              state = #{state}
            </if>
            <if true="title != nil">
              AND title like #{title}
            </if>
            <if true="author != nil and author.name != nil">
              AND author_name like #{author.name}
            </if>
          </where>
        </select>
        <select id="featured" arguments="title, author" result="[{}]">
          select ${bookColumns} from ${T} where state = 'ACTIVE'
          <choose>
            <when true="title != nil">
              AND title like #{title}
            </when>
            <when true="author != nil and author.name != nil">
              AND author_name like #{author.name}
            </when>
            <otherwise>
              AND featured = 1
            </otherwise>
          </choose>
        </select>
        <select id="complex" arguments="title, year, authors" result="[{}]">
          select id from ${T}
          <where onVoid="quit">
            <if true="(title != nil and year &gt; 2010) or authors.count &gt;= 2">id &gt; 0</if>
          </where>
        </select>
        <update id="updateAuthor" arguments="id, username, password, email, bio">
          update ${T}
          <set>
            <if false="username != nil">username=#{username},</if>
            <if false="password != nil">password=#{password},</if>
            <if true="email != nil">email=#{email},</if>
            <if true="bio != nil">bio=#{bio},</if>
          </set>
          where id = #{id}
        </update>
        <update id="proc" arguments="list, prefix">
          select <foreach item="iterator" collection="list" open="(" separator="," close=")" reverse="yes">@{prefix no ""}@{iterator no ""}</foreach>
        </update>
        </module>
        """

    /// The seed's try/except example.
    static let templates = """
        <module name="templates" initializer="createTable" tableName="templates" version="1.0">
        <update id="createTable">
          create table if not exists ${T} (tplId text, tplVersion integer, time integer, data text, tag text, primary key (tplId, tplVersion))
        </update>
        <insert id="insertTemplates" arguments="templates" foreach="templates.model">
          <try>
            insert into ${T} (tplId, tplVersion, time, data, tag) values(%{'#{model.*}', tplId, tplVersion, time, data, tag})
            <except>
              update ${T} set %{'* = #{model.*}', data, tag} where tplId = #{model.tplId} and tplVersion = #{model.tplVersion}
            </except>
          </try>
        </insert>
        <select id="all" result="[{}]">select rowid, tplId, tplVersion, data, tag from ${T} order by rowid</select>
        </module>
        """
}

/// The seed's `MessageModel`.
struct MessageModel: Record, Codable, Sendable, Equatable, DAOValueConvertible {
    var msgId: Int64
    var content: String?
    var uin: Int64
    var read: Bool
}
